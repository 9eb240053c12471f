package report

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

func TestProto(t *testing.T) {
	total := time.Now()
	card, err := Build(context.Background(), Options{Progress: func(a string, c *Cell, done, n int) {
		fmt.Printf("%3d/%d %-24s %-11s %-10s %-17s %s runs=%d steps=%d %v\n", done, n, a, c.Column, c.Kind, c.Verdict, c.Strategy, c.Schedules, c.Steps, c.Counts)
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range card.Rows {
		fmt.Printf("%-24s %+v %v\n   %s\n", r.Algorithm, *r.Probe, r.Needs, r.Advice.En)
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Println("total", time.Since(total), "cpu", time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
}
