package train

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestPlots(t *testing.T) {
	dir := t.TempDir()
	if d := os.Getenv("COLONY_PLOT_DIR"); d != "" { // keep the images to look at
		dir = d
	}
	var rows []StepStats
	for i := range 200 {
		x := float64(i)
		rows = append(rows, StepStats{Step: int64(i + 1), Total: 7 - x/50, Policy: 6.5 - x/50, Value: 0.5 - x/1000, L2: 0.01})
	}
	lp, ep := filepath.Join(dir, "loss.png"), filepath.Join(dir, "elo.png")
	if err := PlotLosses(lp, rows, 10); err != nil {
		t.Fatal(err)
	}
	if err := PlotElo(ep, []int{0, 1, 2, 3}, []float64{0, 120, 180, 260}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{lp, ep} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if r := img.Bounds(); r.Dx() < 400 || r.Dy() < 200 {
			t.Errorf("%s: %v", p, r)
		}
	}
	if err := PlotElo(ep, []int{1}, nil); err == nil {
		t.Error("mismatched lengths accepted")
	}
	if err := PlotLosses(lp, nil, 0); err == nil {
		t.Error("empty rows accepted")
	}
}
