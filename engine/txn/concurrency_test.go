package txn

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/stretchr/testify/require"
)

const (
	bankAccounts = 16
	bankInitial  = 1000
)

// transfer is one committed move of money, for the serial model.
type transfer struct{ from, to, amount int }

// stressDuration is short by default and long under LADYBUG_STRESS=1.
func stressDuration() time.Duration {
	if os.Getenv("LADYBUG_STRESS") == "1" {
		return 15 * time.Second
	}
	return 700 * time.Millisecond
}

func balance(v []byte) int { return int(int64(binary.BigEndian.Uint64(v))) }

func encBalance(n int) []byte { return binary.BigEndian.AppendUint64(nil, uint64(int64(n))) }

// TestManager_BankTransfer_ReadersSeeConstantTotal runs 8 readers and 2
// writers: every reader sees the constant total, only busy-snapshot errors
// occur (and are retried), and the final state equals the serial model.
func TestManager_BankTransfer_ReadersSeeConstantTotal(t *testing.T) {
	eachBackendBusy(t, 10*time.Second, func(t *testing.T, b *backend) {
		root := newBank(t, b.m)
		deadline := time.Now().Add(stressDuration())
		var wg sync.WaitGroup
		errc := make(chan error, 16)
		done := make([][]transfer, 2)
		for w := 0; w < 2; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
				for time.Now().Before(deadline) {
					tr, err := bankTransfer(b.m, root, r)
					if err != nil {
						errc <- err
						return
					}
					done[w] = append(done[w], tr...)
				}
			}()
		}
		for rd := 0; rd < 8; rd++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Now().Before(deadline) {
					if err := bankAudit(b.m, root); err != nil {
						errc <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			require.NoError(t, err)
		}
		checkBankModel(t, b.m, root, append(done[0], done[1]...))
	})
}

func newBank(t *testing.T, m *Manager) uint32 {
	tx := begin(t, m, Options{Immediate: true})
	root, err := tx.CreateTree()
	require.NoError(t, err)
	for i := 0; i < bankAccounts; i++ {
		require.NoError(t, tx.Tree(root).Put(key(i), encBalance(bankInitial)))
	}
	commit(t, tx)
	return root
}

// bankTransfer commits one transfer (retrying busy snapshots), sometimes
// with an extra transfer undone by ROLLBACK TO, sometimes as delete plus
// re-insert. It returns the transfers that committed.
func bankTransfer(m *Manager, root uint32, r *rand.Rand) ([]transfer, error) {
	for {
		tr, err := tryTransfer(m, root, r)
		var e *errs.Error
		if errors.As(err, &e) && e.ExtendedCode == errs.ExtBusySnapshot {
			continue // documented: a deferred transaction retries
		}
		return tr, err
	}
}

func tryTransfer(m *Manager, root uint32, r *rand.Rand) (out []transfer, err error) {
	tx, err := m.Begin(ctx, Options{Immediate: r.IntN(4) == 0})
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if err := tx.StartStatement(ctx); err != nil {
		return nil, err
	}
	one := transfer{r.IntN(bankAccounts), r.IntN(bankAccounts), r.IntN(50)}
	if err := applyTransfer(tx.Tree(root), one, r.IntN(2) == 0); err != nil {
		return nil, err
	}
	if err := tx.Savepoint("extra"); err != nil {
		return nil, err
	}
	if err := applyTransfer(tx.Tree(root), transfer{0, 1, 999}, false); err != nil {
		return nil, err
	}
	if err := tx.RollbackTo("extra"); err != nil {
		return nil, err
	}
	if err := tx.EndStatement(nil); err != nil {
		return nil, err
	}
	return []transfer{one}, tx.Commit()
}

func applyTransfer(tr *TxTree, x transfer, viaDelete bool) error {
	if x.from == x.to {
		return nil
	}
	for _, side := range []struct{ acct, delta int }{{x.from, -x.amount}, {x.to, x.amount}} {
		v, ok, err := tr.Get(key(side.acct))
		if err != nil {
			return err
		}
		if !ok {
			return errors.New("account missing")
		}
		nb := encBalance(balance(v) + side.delta)
		if viaDelete {
			if err := tr.Delete(key(side.acct)); err != nil {
				return err
			}
		}
		if err := tr.Put(key(side.acct), nb); err != nil {
			return err
		}
	}
	return nil
}

// bankAudit sums every balance in one read transaction.
func bankAudit(m *Manager, root uint32) error {
	tx, err := m.Begin(ctx, Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if err := tx.StartStatement(ctx); err != nil {
		return err
	}
	total, n := 0, 0
	c := tx.Tree(root).Cursor()
	defer c.Close()
	for ok := c.First(); ok; ok = c.Next() {
		v, err := c.Value()
		if err != nil {
			return err
		}
		total += balance(v)
		n++
	}
	if err := c.Err(); err != nil {
		return err
	}
	if total != bankAccounts*bankInitial || n != bankAccounts {
		return errors.New("audit saw a partial transfer")
	}
	return nil
}

func checkBankModel(t *testing.T, m *Manager, root uint32, done []transfer) {
	want := make([]int, bankAccounts)
	for i := range want {
		want[i] = bankInitial
	}
	for _, x := range done {
		if x.from != x.to {
			want[x.from] -= x.amount
			want[x.to] += x.amount
		}
	}
	tx := begin(t, m, Options{ReadOnly: true})
	for i := range want {
		v, ok, err := tx.Tree(root).Get(key(i))
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, want[i], balance(v), "account %d", i)
	}
	require.NoError(t, tx.Rollback())
	st := m.Stats()
	t.Logf("%d transfers committed, %d busy-snapshot retries, %d rolled back",
		len(done), st.BusySnapshot, st.RolledBack)
}
