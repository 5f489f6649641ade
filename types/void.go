package types

import (
	"math"
	"time"
)

// void is the result of functions that do their work and return nothing:
// its value is not NULL and prints as the empty string (void_out).

// registerSleepFuncs registers pg_sleep, pg_sleep_for and pg_sleep_until:
// volatile, and they end early with 57014 when the statement is cancelled
// (EvalContext.Ctx: a cancel request, pg_cancel_backend or
// statement_timeout).
func registerSleepFuncs() {
	b := regFn("pg_sleep", []ID{Float8}, Void, func(c *EvalContext, a []Value) (Value, error) {
		return sleepFor(c, a[0].F)
	})
	b.volatile = true
	b = regFn("pg_sleep_for", []ID{Interval}, Void, func(c *EvalContext, a []Value) (Value, error) {
		now := time.Now()
		end, err := tzPlusInterval(now.UnixMicro(), a[0].Iv, ctxZone(c))
		if err != nil {
			return Value{}, err
		}
		return sleepFor(c, float64(end-now.UnixMicro())/1e6)
	})
	b.volatile = true
	b = regFn("pg_sleep_until", []ID{TimestampTZ}, Void, func(c *EvalContext, a []Value) (Value, error) {
		return sleepFor(c, float64(a[0].I-time.Now().UnixMicro())/1e6)
	})
	b.volatile = true
}

// sleepFor waits secs seconds (none when secs is not positive or NaN, as
// PostgreSQL's pg_sleep).
func sleepFor(c *EvalContext, secs float64) (Value, error) {
	if !(secs > 0) {
		return Value{}, nil
	}
	d := time.Duration(math.Min(secs, float64(math.MaxInt64/2)/1e9) * 1e9)
	t := time.NewTimer(d)
	defer t.Stop()
	if c == nil || c.Ctx == nil {
		<-t.C
		return Value{}, nil
	}
	select {
	case <-t.C:
		return Value{}, nil
	case <-c.Ctx.Done():
		return Value{}, errCanceled()
	}
}
