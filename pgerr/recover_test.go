package pgerr

import (
	"errors"
	"testing"
)

func TestSafelyTurnsPanicIntoInternalError(t *testing.T) {
	err := Safely("test", func() error {
		var a []int
		_ = a[3] // index out of range
		return nil
	})
	var e *Error
	if !errors.As(err, &e) || e.Code != InternalError {
		t.Fatalf("got %v, want XX000", err)
	}
	done := make(chan error)
	go func() { done <- Safely("goroutine", func() error { panic("boom") }) }()
	if err := <-done; err == nil || err.Error() != "internal error: boom" {
		t.Fatalf("goroutine panic: %v", err)
	}
	want := errors.New("plain")
	if err := Safely("test", func() error { return want }); err != want {
		t.Fatalf("error passes through: %v", err)
	}
}
