package train

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// PlotsEnabled reports whether this build can draw PNG plots.
const PlotsEnabled = true

// PlotLosses draws the total, policy, value and L2 losses of rows against the step into a PNG
// file at path. Curves are smoothed with an exponential moving average over about smooth
// steps (0 or 1: raw values).
func PlotLosses(path string, rows []StepStats, smooth int) error {
	if len(rows) == 0 {
		return fmt.Errorf("train: no loss rows to plot")
	}
	p := newPlot("Training loss", "step", "loss")
	p.Legend.Top = true
	series := []struct {
		name string
		get  func(StepStats) float64
		col  color.RGBA
	}{
		{"total", func(s StepStats) float64 { return s.Total }, color.RGBA{A: 255}},
		{"policy", func(s StepStats) float64 { return s.Policy }, color.RGBA{B: 200, A: 255}},
		{"value", func(s StepStats) float64 { return s.Value }, color.RGBA{R: 200, A: 255}},
		{"l2", func(s StepStats) float64 { return s.L2 }, color.RGBA{G: 150, A: 255}},
	}
	for _, s := range series {
		pts := smoothed(rows, s.get, smooth)
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("train: plotting %s: %w", s.name, err)
		}
		l.Color = s.col
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	p.Add(plotter.NewGrid())
	return savePlot(p, path)
}

// PlotElo draws the Elo rating of each generation into a PNG file at path.
func PlotElo(path string, gens []int, elo []float64) error {
	if len(gens) != len(elo) {
		return fmt.Errorf("train: PlotElo: %d generations but %d ratings", len(gens), len(elo))
	}
	if len(gens) == 0 {
		return fmt.Errorf("train: PlotElo: nothing to plot")
	}
	p := newPlot("Elo per generation", "generation", "Elo")
	pts := make(plotter.XYs, len(gens))
	for i := range gens {
		pts[i].X, pts[i].Y = float64(gens[i]), elo[i]
	}
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return fmt.Errorf("train: plotting Elo: %w", err)
	}
	l.Color = color.RGBA{B: 200, A: 255}
	s.Color = l.Color
	p.Add(l, s, plotter.NewGrid())
	return savePlot(p, path)
}

// newPlot is an empty plot with its title and axis labels.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	return p
}

// savePlot renders p to PNG through a temporary file.
func savePlot(p *plot.Plot, path string) error {
	wt, err := p.WriterTo(8*vg.Inch, 5*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("train: rendering plot: %w", err)
	}
	return writeAtomic(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}
