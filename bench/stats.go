package main

import (
	"cmp"
	"fmt"
	"slices"
)

// cellStats summarises the measured runs of a cell.
type cellStats struct {
	nsPerOp     float64 // median
	spread      float64 // (max-min)/2 over the median: the run-to-run noise
	allocsPerOp float64 // median
	bytesPerOp  float64 // median
	cpuPerOp    float64 // median CPU ns per op; 0 when not measured
	peakHeap    uint64  // largest over runs
	errors      int     // summed over runs
	firstErr    string
	note        string // of the median run
}

func summarize(runs []runRecord) cellStats {
	var s cellStats
	ns := make([]float64, len(runs))
	al := make([]float64, len(runs))
	by := make([]float64, len(runs))
	cpu := make([]float64, 0, len(runs))
	for i, r := range runs {
		ops := float64(max(r.Ops, 1))
		ns[i] = float64(r.Ns) / ops
		al[i] = float64(r.Allocs) / ops
		by[i] = float64(r.Bytes) / ops
		if r.CPUNs > 0 {
			cpu = append(cpu, float64(r.CPUNs)/ops)
		}
		s.peakHeap = max(s.peakHeap, r.PeakHeap)
		s.errors += r.Errors
		if s.firstErr == "" {
			s.firstErr = r.FirstErr
		}
	}
	s.nsPerOp, s.allocsPerOp, s.bytesPerOp, s.cpuPerOp = median(ns), median(al), median(by), median(cpu)
	if len(ns) > 1 && s.nsPerOp > 0 {
		s.spread = (slices.Max(ns) - slices.Min(ns)) / 2 / s.nsPerOp
	}
	if len(runs) > 0 {
		s.note = medianRun(runs, ns).Note
	}
	return s
}

// median of xs (the mean of the middle two for an even count); 0 if empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// fmtDur prints nanoseconds with three significant digits and a unit.
func fmtDur(ns float64) string {
	switch {
	case ns < 1e3:
		return fmt.Sprintf("%.0fns", ns)
	case ns < 1e6:
		return sig3(ns/1e3) + "µs"
	case ns < 1e9:
		return sig3(ns/1e6) + "ms"
	default:
		return sig3(ns/1e9) + "s"
	}
}

func sig3(v float64) string {
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	case v < 100:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.0f", v)
	}
}

// fmtBytes prints a byte count with a binary unit.
func fmtBytes(b float64) string {
	switch {
	case b < 1024:
		return fmt.Sprintf("%.0f B", b)
	case b < 1<<20:
		return sig3(b/1024) + " KiB"
	case b < 1<<30:
		return sig3(b/(1<<20)) + " MiB"
	default:
		return sig3(b/(1<<30)) + " GiB"
	}
}

// fmtCount prints an allocation count per op.
func fmtCount(v float64) string {
	if v < 100 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// medianRun is the run whose time per op is the lower median.
func medianRun(runs []runRecord, nsPerOp []float64) runRecord {
	idx := make([]int, len(runs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(nsPerOp[a], nsPerOp[b]) })
	return runs[idx[(len(idx)-1)/2]]
}
