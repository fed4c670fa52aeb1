package train

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// lossHeader is the header line of the per-step loss CSV.
var lossHeader = []string{"step", "total", "policy", "value", "l2", "lr", "samples_per_s"}

// LossLog appends one CSV row per training step.
type LossLog struct{ csvLog }

// OpenLossLog opens (or creates) the loss CSV at path for a run that continues after update
// number fromStep: rows of an earlier run with a step > fromStep (work lost when it was killed
// after its last checkpoint) are dropped, so a resumed run leaves one row per step.
func OpenLossLog(path string, fromStep int64) (*LossLog, error) {
	rows, err := ReadLossCSV(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		rows = nil
	case err != nil:
		return nil, err
	}
	var kept []string
	for _, r := range rows {
		if r.Step <= fromStep {
			kept = append(kept, formatLossRow(r))
		}
	}
	f, err := openAppendCSV(path, lossHeader, kept, len(kept) == len(rows) && len(rows) > 0)
	if err != nil {
		return nil, err
	}
	return &LossLog{csvLog{f: f, w: bufio.NewWriter(f), what: "loss log"}}, nil
}

func formatLossRow(s StepStats) string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 7, 64) }
	return fmt.Sprintf("%d,%s,%s,%s,%s,%s,%s\n", s.Step, g(s.Total), g(s.Policy), g(s.Value), g(s.L2), g(s.LR),
		strconv.FormatFloat(s.SamplesPerSec, 'f', 1, 64))
}

// Write appends one row and flushes it to the file.
func (l *LossLog) Write(s StepStats) error { return l.write(formatLossRow(s)) }

// csvLog is an open CSV file rows are appended to, each flushed (the loss and epoch logs).
type csvLog struct {
	f    *os.File
	w    *bufio.Writer
	what string
}

func (l *csvLog) write(row string) error {
	if l.f == nil {
		return fmt.Errorf("train: %s is closed", l.what)
	}
	if _, err := l.w.WriteString(row); err != nil {
		return fmt.Errorf("train: %s: %w", l.what, err)
	}
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("train: %s: %w", l.what, err)
	}
	return nil
}

// Close flushes and closes the file. Closing twice is harmless.
func (l *csvLog) Close() error {
	if l.f == nil {
		return nil
	}
	err := l.w.Flush()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// ReadLossCSV reads a loss CSV written by LossLog (GradNorm is not stored and reads as 0).
func ReadLossCSV(path string) ([]StepStats, error) {
	recs, err := readCSVFloats(path, lossHeader, "loss log")
	if err != nil {
		return nil, err
	}
	out := make([]StepStats, 0, len(recs))
	for _, v := range recs {
		out = append(out, StepStats{Step: int64(v[0]), Total: v[1], Policy: v[2], Value: v[3], L2: v[4], LR: v[5], SamplesPerSec: v[6]})
	}
	return out, nil
}

// readCSVFloats reads the rows of a CSV of numbers under header (what names it in errors): a
// file of another header is refused, an empty file has no rows.
func readCSVFloats(path string, header []string, what string) ([][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("train: reading %s: %w", what, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("train: reading %s %s: %w", what, path, err)
	}
	if len(recs) == 0 {
		return nil, nil // an empty file: no rows yet
	}
	if strings.Join(recs[0], ",") != strings.Join(header, ",") {
		return nil, fmt.Errorf("train: %s: header %q, not the %s's %q", path, strings.Join(recs[0], ","), what, strings.Join(header, ","))
	}
	out := make([][]float64, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		if len(rec) != len(header) {
			return nil, fmt.Errorf("train: %s line %d: %d fields, want %d", path, i+2, len(rec), len(header))
		}
		v := make([]float64, len(rec))
		for j, s := range rec {
			if v[j], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("train: %s line %d: %w", path, i+2, err)
			}
		}
		out = append(out, v)
	}
	return out, nil
}
