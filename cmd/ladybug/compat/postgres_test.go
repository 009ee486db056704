package compat

import (
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pgServer is a PostgreSQL server this test started in a temporary
// directory, from Debian's postgresql package.
type pgServer struct {
	bin  string // directory of initdb, pg_ctl, postgres, psql
	dir  string
	port int
	cred *syscall.Credential // the unprivileged user it runs as when we are root
}

// pgBinDir finds the newest /usr/lib/postgresql/N/bin.
func pgBinDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi < vj
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i]
		}
	}
	return ""
}

// startPostgres runs initdb and pg_ctl start in a new directory, on a
// free loopback port; the server stops when the test ends. Without the
// postgresql package the test skips, saying why (.ci/run installs it).
func startPostgres(t *testing.T) *pgServer {
	t.Helper()
	bin := pgBinDir()
	if bin == "" {
		if reason := os.Getenv("LADYBUG_NO_POSTGRES"); reason != "" {
			t.Skip("PostgreSQL is not installed: " + reason)
		}
		if os.Getenv("CI") != "" {
			t.Fatal("PostgreSQL is not installed: .ci/run installs Debian's postgresql package before the tests")
		}
		t.Skip("PostgreSQL is not installed (apt-get install postgresql): skipping the PostgreSQL test")
	}
	dir, err := os.MkdirTemp("", "ladybug-pg-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	srv := &pgServer{bin: bin, dir: dir, port: freePort(t)}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		require.NoError(t, err, "running as root: PostgreSQL needs an unprivileged user")
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		srv.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		require.NoError(t, os.Chown(dir, uid, gid))
	}
	srv.run(t, "initdb", "-D", srv.data(), "-U", "postgres", "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync")
	srv.run(t, "pg_ctl", "-D", srv.data(), "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start",
		"-o", fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -F", srv.port, dir))
	t.Cleanup(func() {
		cmd := srv.cmd("pg_ctl", "-D", srv.data(), "-m", "immediate", "-w", "stop")
		cmd.Run()
	})
	return srv
}

func (p *pgServer) data() string { return filepath.Join(p.dir, "data") }

func (p *pgServer) cmd(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(p.bin, name), args...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "PGTZ=UTC")
	if p.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: p.cred}
	}
	return cmd
}

func (p *pgServer) run(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := p.cmd(name, args...).CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
		t.Fatalf("%s %v: %v\n%s\n%s", name, args, err, out, log)
	}
}

// psql runs a script file with ON_ERROR_STOP and returns its output.
func (p *pgServer) psql(t *testing.T, db, script string) {
	t.Helper()
	f := filepath.Join(p.dir, "script.sql")
	require.NoError(t, os.WriteFile(f, []byte(script), 0o644))
	out, err := p.cmd("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", strconv.Itoa(p.port),
		"-U", "postgres", "-d", db, "-f", f).CombinedOutput()
	require.NoError(t, err, "psql: %s", out)
}

func (p *pgServer) open(t *testing.T, db string) *sql.DB {
	t.Helper()
	c, err := sql.Open("pgx", fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", p.port, db))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	deadline := time.Now().Add(30 * time.Second)
	for c.Ping() != nil && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	require.NoError(t, c.Ping())
	return c
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestPostgres_DumpLoadsAndAnswersAlike: .dump --postgres of the fixture
// loads into a real PostgreSQL with psql, which then gives ladybug's
// answers to the fixture queries; the identity sequences continue past the
// largest id; what has no PostgreSQL form (the trigger) is reported on
// stderr and as a comment.
func TestPostgres_DumpLoadsAndAnswersAlike(t *testing.T) {
	srv := startPostgres(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	require.NoError(t, loadFixture(t, src, readFixture(t)).Close())
	dump, stderr := dot(t, src, ".dump --postgres")
	assert.Contains(t, stderr, "trigger orders_cleanup has no PostgreSQL equivalent")
	assert.Contains(t, dump, "-- NOTE: trigger orders_cleanup")
	assert.Contains(t, dump, "COPY customers (")
	assert.Contains(t, dump, "id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")

	srv.run(t, "createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(srv.port), "-U", "postgres", "fixture")
	srv.psql(t, "fixture", dump)
	pg := srv.open(t, "fixture")
	lb, err := sql.Open("ladybug", src+"?values=stored")
	require.NoError(t, err)
	defer lb.Close()

	queries := append(fixtureQueries,
		`INSERT INTO customers(name) VALUES ('next') RETURNING id`,
		`INSERT INTO orders(customer_id, amount) VALUES (6, 1) RETURNING id, qty, total`,
		`SELECT name FROM customers WHERE id = 6`,
	)
	for _, q := range queries {
		want, err := queryAll(lb, q)
		require.NoError(t, err, q)
		got, err := queryAll(pg, q)
		require.NoError(t, err, q)
		assert.Empty(t, diffRows(want, got), q)
	}
}
