package conformance

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

func TestZZTmpAll(t *testing.T) {
	seed, _ := strconv.ParseUint(os.Getenv("ZZSEED"), 10, 64)
	a, b := DefaultSides()
	d := &Differ{A: a, B: b, ResetEvery: 200, KeepSample: 1 << 30}
	st, err := d.Run(seed, 6000)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(os.Getenv("ZZOUT"))
	defer f.Close()
	for _, m := range st.Samples {
		fmt.Fprintf(f, "%d %s\n", m.Index, m.SQL)
	}
}
