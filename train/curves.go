package train

import (
	"bufio"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// EpochStats is one validation of an NNUE run (a row of the per-epoch CSV).
type EpochStats struct {
	Step        int64   // the updates done when validated
	Epoch       float64 // steps of this run over the steps of an epoch (training window / batch); a resumed run counts from where it began
	LR          float64 // the learning rate of the last update
	Train       float64 // mean training MSE since the previous validation (NaN: none)
	Val         float64 // validation MSE against the training targets (the blend)
	ValResult   float64 // validation MSE against the results alone
	ValExamples int
	Seconds     float64 // since the run started (a resumed run's stopped parts included)
}

// epochHeader is the header line of the per-epoch CSV.
var epochHeader = []string{"step", "epoch", "lr", "train_mse", "val_mse", "val_result_mse", "val_examples", "seconds"}

func formatEpochRow(s EpochStats) string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 7, 64) }
	return fmt.Sprintf("%d,%s,%s,%s,%s,%s,%d,%s\n", s.Step, strconv.FormatFloat(s.Epoch, 'f', 4, 64), g(s.LR), g(s.Train),
		g(s.Val), g(s.ValResult), s.ValExamples, strconv.FormatFloat(s.Seconds, 'f', 1, 64))
}

// EpochLog appends one CSV row per validation.
type EpochLog struct {
	csvLog
	last     int64   // the step of the last row kept when opened (-1: none)
	lastSecs float64 // that row's seconds
}

// OpenEpochLog opens (or creates) the per-epoch CSV at path for a run that continues after
// update number fromStep: rows past fromStep (of a run that was stopped) are dropped.
func OpenEpochLog(path string, fromStep int64) (*EpochLog, error) {
	rows, err := ReadEpochCSV(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var kept []string
	last, lastSecs := int64(-1), 0.0
	for _, r := range rows {
		if r.Step <= fromStep {
			kept, last, lastSecs = append(kept, formatEpochRow(r)), r.Step, r.Seconds
		}
	}
	f, err := openAppendCSV(path, epochHeader, kept, len(kept) == len(rows) && len(rows) > 0)
	if err != nil {
		return nil, err
	}
	return &EpochLog{csvLog{f: f, w: bufio.NewWriter(f), what: "epoch log"}, last, lastSecs}, nil
}

// openAppendCSV opens the CSV at path for appending, first rewriting it (temp + rename) as
// header and kept rows unless unchanged says it already holds exactly those.
func openAppendCSV(path string, header, kept []string, unchanged bool) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if !unchanged {
		err := writeAtomic(path, func(w io.Writer) error {
			if _, err := io.WriteString(w, strings.Join(header, ",")+"\n"); err != nil {
				return err
			}
			for _, r := range kept {
				if _, err := io.WriteString(w, r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("train: opening %s: %w", path, err)
	}
	return f, nil
}

// Write appends one row and flushes it to the file.
func (l *EpochLog) Write(s EpochStats) error { return l.write(formatEpochRow(s)) }

// ReadEpochCSV reads a per-epoch CSV written by EpochLog; a file of another header is an error.
func ReadEpochCSV(path string) ([]EpochStats, error) {
	recs, err := readCSVFloats(path, epochHeader, "epoch log")
	if err != nil {
		return nil, err
	}
	out := make([]EpochStats, 0, len(recs))
	for _, v := range recs {
		out = append(out, EpochStats{Step: int64(v[0]), Epoch: v[1], LR: v[2], Train: v[3], Val: v[4], ValResult: v[5],
			ValExamples: int(v[6]), Seconds: v[7]})
	}
	return out, nil
}

// PlotCurves draws an NNUE run's curves into path (SVG when it ends in .svg, else PNG), two
// panels over the step: above, the training MSE of steps (smoothed over about smooth steps)
// and the validation MSEs of epochs, each validation a marked point; below, the learning rate
// of each step.
func PlotCurves(path string, steps []StepStats, epochs []EpochStats, smooth int) error {
	if len(steps) == 0 && len(epochs) == 0 {
		return fmt.Errorf("train: no steps or epochs to plot")
	}
	loss := newPlot("Loss", "step", "MSE")
	loss.Legend.Top = true
	if len(steps) > 0 {
		l, err := plotter.NewLine(smoothed(steps, func(s StepStats) float64 { return s.Value }, smooth))
		if err != nil {
			return fmt.Errorf("train: plotting the training loss: %w", err)
		}
		l.Color, l.Width = color.RGBA{A: 255}, vg.Points(1)
		loss.Add(l)
		loss.Legend.Add("training (smoothed)", l)
	}
	for _, s := range []struct {
		name  string
		get   func(EpochStats) float64
		col   color.RGBA
		glyph draw.GlyphDrawer
	}{
		{"validation", func(e EpochStats) float64 { return e.Val }, color.RGBA{R: 200, A: 255}, draw.CircleGlyph{}},
		{"validation, results alone", func(e EpochStats) float64 { return e.ValResult }, color.RGBA{B: 200, A: 255}, draw.SquareGlyph{}},
	} {
		if len(epochs) == 0 {
			break
		}
		pts := make(plotter.XYs, len(epochs))
		for i, e := range epochs {
			pts[i].X, pts[i].Y = float64(e.Step), s.get(e)
		}
		l, p, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("train: plotting %s: %w", s.name, err)
		}
		l.Color, p.Color, p.Shape = s.col, s.col, s.glyph
		loss.Add(l, p)
		loss.Legend.Add(s.name, l, p)
	}
	loss.Add(plotter.NewGrid())

	lr := newPlot("Learning rate", "step", "lr")
	pts := make(plotter.XYs, 0, len(steps)+len(epochs))
	if len(steps) > 0 {
		for _, s := range steps {
			pts = append(pts, plotter.XY{X: float64(s.Step), Y: s.LR})
		}
	} else {
		for _, e := range epochs {
			pts = append(pts, plotter.XY{X: float64(e.Step), Y: e.LR})
		}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("train: plotting the learning rate: %w", err)
	}
	l.Color = color.RGBA{G: 130, A: 255}
	lr.Add(l, plotter.NewGrid())
	loss.X.Min, loss.X.Max = math.Min(loss.X.Min, lr.X.Min), math.Max(loss.X.Max, lr.X.Max)
	lr.X.Min, lr.X.Max = loss.X.Min, loss.X.Max
	return savePlots(path, []*plot.Plot{loss, lr}, []float64{2, 1})
}

// smoothed is get of rows against the step, through an exponential moving average over about
// smooth steps (0 or 1: the raw values).
func smoothed(rows []StepStats, get func(StepStats) float64, smooth int) plotter.XYs {
	alpha := 1.0
	if smooth > 1 {
		alpha = 2 / float64(smooth+1)
	}
	pts := make(plotter.XYs, len(rows))
	var ema float64
	for i, r := range rows {
		v := get(r)
		if i == 0 {
			ema = v
		} else {
			ema += alpha * (v - ema)
		}
		pts[i].X, pts[i].Y = float64(r.Step), ema
	}
	return pts
}

// savePlots renders plots stacked top to bottom, each as tall as its share of heights, into
// path (SVG when it ends in .svg, else PNG) through a temporary file.
func savePlots(path string, plots []*plot.Plot, heights []float64) error {
	const w, h = 8 * vg.Inch, 7 * vg.Inch
	var c vg.CanvasWriterTo
	if strings.HasSuffix(strings.ToLower(path), ".svg") {
		c = vgsvg.New(w, h)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	}
	dc := draw.New(c)
	var total float64
	for _, x := range heights {
		total += x
	}
	// Each plot's tile, narrowed so that the data areas line up (the same steps one above the
	// other whatever the width of each plot's tick labels).
	subs := make([]draw.Canvas, len(plots))
	var left, right vg.Length
	top := dc.Max.Y
	for i, p := range plots {
		subs[i] = dc
		subs[i].Max.Y = top
		subs[i].Min.Y = top - vg.Length(heights[i]/total)*(dc.Max.Y-dc.Min.Y)
		top = subs[i].Min.Y
		d := p.DataCanvas(subs[i])
		left, right = max(left, d.Min.X-subs[i].Min.X), max(right, subs[i].Max.X-d.Max.X)
	}
	for i, p := range plots {
		d := p.DataCanvas(subs[i])
		subs[i].Min.X += left - (d.Min.X - subs[i].Min.X)
		subs[i].Max.X -= right - (subs[i].Max.X - d.Max.X)
		p.Draw(subs[i])
	}
	return writeAtomic(path, func(wr io.Writer) error {
		_, err := c.WriteTo(wr)
		return err
	})
}
