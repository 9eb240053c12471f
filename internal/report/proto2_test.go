package report

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"testing"
	"time"
)

func TestProtoCell(t *testing.T) {
	f, _ := os.Create("/tmp/cell.prof")
	pprof.StartCPUProfile(f)
	defer pprof.StopCPUProfile()
	start := time.Now()
	c, err := ComputeCell(context.Background(), os.Getenv("ALGO"), os.Getenv("COL"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(c.Kind, c.Verdict, c.Strategy, c.Schedules, c.Steps, time.Since(start))
}
