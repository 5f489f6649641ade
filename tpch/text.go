package tpch

// The text pool (dbgen's text.c): comments are slices of one 300 MiB
// pseudo-English text built from the grammar of dists.dss. Every comment is
// a random offset into the whole pool, so the pool is built in full.

const textPoolSize = 300 * 1024 * 1024

const textPoolStream = 5

// buildTextPool is dbgen's init_text_pool: sentences from stream 5, each
// followed by a space, the last one cut to fill the pool exactly.
func buildTextPool(d *distributions) []byte {
	r := newStreams(groupNone)
	pool := make([]byte, 0, textPoolSize)
	var sentence []byte
	for len(pool) < textPoolSize {
		sentence = d.sentence(r, sentence[:0])
		if need := textPoolSize - len(pool); need >= len(sentence)+1 {
			pool = append(pool, sentence...)
			pool = append(pool, ' ')
		} else {
			pool = append(pool, sentence[:need]...)
		}
	}
	return pool
}

// sentence is dbgen's txt_sentence: a grammar production of noun phrases
// (N), verb phrases (V), prepositional phrases (P) and a terminator (T).
func (d *distributions) sentence(r *streams, buf []byte) []byte {
	i, _ := d.grammar.pick(r, textPoolStream)
	for _, item := range d.grammar.items[i] {
		switch item[0] {
		case 'V':
			buf = d.phrase(r, buf, d.verbPhrases)
		case 'N':
			buf = d.phrase(r, buf, d.nounPhrases)
		case 'P':
			_, prep := d.prepositions.pick(r, textPoolStream)
			buf = append(buf, prep...)
			buf = append(buf, " the "...)
			buf = d.phrase(r, buf, d.nounPhrases)
		case 'T':
			// The terminator replaces the space after the last word.
			buf = buf[:len(buf)-1]
			_, term := d.terminators.pick(r, textPoolStream)
			buf = append(buf, term...)
		}
		if len(item) > 1 {
			buf = append(buf, item[1])
		}
	}
	return buf
}

// phrase is dbgen's txt_np / txt_vp: a phrase syntax (e.g. "J, J N")
// picked from set, each letter a word of its part of speech, each word
// followed by its punctuation (if any) and a space.
func (d *distributions) phrase(r *streams, buf []byte, set *dist) []byte {
	i, _ := set.pick(r, textPoolStream)
	for _, item := range set.items[i] {
		var words *dist
		switch item[0] {
		case 'A':
			words = d.articles
		case 'J':
			words = d.adjectives
		case 'D':
			words = d.adverbs
		case 'N':
			words = d.nouns
		case 'V':
			words = d.verbs
		case 'X':
			words = d.auxiliaries
		}
		_, w := words.pick(r, textPoolStream)
		buf = append(buf, w...)
		if len(item) > 1 {
			buf = append(buf, item[1])
		}
		buf = append(buf, ' ')
	}
	return buf
}
