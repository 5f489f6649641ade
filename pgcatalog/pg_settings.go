package pgcatalog

// pg_settings is a view of the session's settings.Values: the one
// registry (package settings) that SET, SHOW, RESET, ParameterStatus and
// current_setting/set_config read as well, so a setting declared there is
// listed here with nothing more to do.

func declarePgSettings() {
	d := declare(pc, "pg_settings", 12104, 'v', (*Snapshot).settingsRows)
	setFuncs = append(setFuncs, relationFunc("pg_show_all_settings", nil, d, nil))
}

// settingsRows are pg_settings' rows, and pg_show_all_settings()'s.
func (s *Snapshot) settingsRows() []pgSettingsRow {
	if s.env.Settings == nil {
		return nil
	}
	var out []pgSettingsRow
	null := func(v string) *string {
		if v == "" {
			return nil
		}
		return &v
	}
	for _, r := range s.env.Settings.Rows() {
		out = append(out, pgSettingsRow{Name: r.Name, Setting: r.Setting, Unit: null(r.Unit), Category: r.Category,
			ShortDesc: r.ShortDesc, ExtraDesc: null(r.ExtraDesc), Context: r.Context, Vartype: r.Vartype, Source: r.Source,
			MinVal: null(r.MinVal), MaxVal: null(r.MaxVal), Enumvals: textArray(r.EnumVals), BootVal: r.BootVal,
			ResetVal: r.ResetVal})
	}
	return out
}

// textArray is a text[] value given in its text form ("" for NULL).
func textArray(lit string) *[]string {
	if lit == "" {
		return nil
	}
	el, _, _ := ArrayItems(lit)
	return &el
}

// pgSettingsRow is a row of pg_catalog.pg_settings.
type pgSettingsRow struct {
	Name           string    `pg:"name"`
	Setting        string    `pg:"setting"`
	Unit           *string   `pg:"unit"`
	Category       string    `pg:"category"`
	ShortDesc      string    `pg:"short_desc"`
	ExtraDesc      *string   `pg:"extra_desc"`
	Context        string    `pg:"context"`
	Vartype        string    `pg:"vartype"`
	Source         string    `pg:"source"`
	MinVal         *string   `pg:"min_val"`
	MaxVal         *string   `pg:"max_val"`
	Enumvals       *[]string `pg:"enumvals"`
	BootVal        string    `pg:"boot_val"`
	ResetVal       string    `pg:"reset_val"`
	Sourcefile     *string   `pg:"sourcefile"`
	Sourceline     *int32    `pg:"sourceline"`
	PendingRestart bool      `pg:"pending_restart"`
}
