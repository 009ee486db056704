//go:build !unix

package main

// processCPU is -1: the process's CPU time is not read on this system, and
// the CPU table stays empty.
func processCPU() int64 { return -1 }
