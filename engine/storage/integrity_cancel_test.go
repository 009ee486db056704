package storage

import (
	"context"
	"errors"
	"testing"
)

// countdownCtx is a context that reports itself canceled after n polls
// of Err, so a test can stop a loop at a chosen point without timing.
type countdownCtx struct {
	context.Context
	n int
}

func (c *countdownCtx) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

func TestStore_IntegrityCheckContext_StopsWhenTheContextIsDone(t *testing.T) {
	s := openT(t, nil, Options{})
	defer s.Close()
	root := newTreeT(t, s)
	tx := mustWrite(t, s)
	for i := 0; i < 20000; i++ {
		if err := tx.Tree(root).Put(key(i), make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	probs, err := s.IntegrityCheckContext(context.Background())
	if err != nil || len(probs) > 0 {
		t.Fatalf("check: %v %v", probs, err)
	}
	// The first poll passes; a later one, past checkPollPages pages,
	// stops the check.
	_, err = s.IntegrityCheckContext(&countdownCtx{Context: context.Background(), n: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
