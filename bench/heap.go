package main

import (
	"runtime/metrics"
	"time"
)

// heapMetric is the live-and-unswept heap object bytes, readable without
// stopping the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

// heapSampler polls the Go heap size and keeps the largest growth over
// the size at its start: what the measured region added, not the data the
// case built beforehand.
type heapSampler struct {
	base uint64
	done chan struct{}
	peak chan uint64
}

func startHeapSampler() *heapSampler {
	s := &heapSampler{base: heapNow(), done: make(chan struct{}), peak: make(chan uint64, 1)}
	go s.loop()
	return s
}

// heapNow reads the heap metric once.
func heapNow() uint64 {
	sample := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

func (s *heapSampler) loop() {
	sample := []metrics.Sample{{Name: heapMetric}}
	var peak uint64
	read := func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			peak = max(peak, sample[0].Value.Uint64())
		}
	}
	t := time.NewTicker(2 * time.Millisecond)
	defer t.Stop()
	for {
		read()
		select {
		case <-s.done:
			read()
			s.peak <- peak
			return
		case <-t.C:
		}
	}
}

// stop ends sampling and returns the peak growth in bytes.
func (s *heapSampler) stop() uint64 {
	close(s.done)
	if p := <-s.peak; p > s.base {
		return p - s.base
	}
	return 0
}
