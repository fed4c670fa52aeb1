package pipeline

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"colony/arena"
	"colony/replay/report"
	"colony/train"
)

// ReportFile is the run's HTML report in its directory, written after every generation.
const ReportFile = "report.html"

// Report is the run's training report: each generation's loss curve (gen-NNNN/loss.csv),
// the best net's Elo by generation with the gates' errors, the gate results, the settings
// and, for an NNUE run, the nets' provenance.
func (c *Cycle) Report() (*report.Report, error) {
	r := &report.Report{Title: fmt.Sprintf("%s training run %s", c.cfg.Game, filepath.Base(c.dir)), Made: time.Now()}
	r.Notes = append(r.Notes, fmt.Sprintf("Run directory %s; generation %d in its %s stage; best net %s.",
		c.dir, c.st.Generation, c.st.Stage, c.st.Best))
	gens, _ := filepath.Glob(filepath.Join(c.dir, "gen-*", "loss.csv"))
	sort.Strings(gens)
	for _, path := range gens {
		cv, err := lossCurve(path, filepath.Base(filepath.Dir(path)))
		if err != nil {
			return nil, err
		}
		if len(cv.Step) > 0 {
			r.Loss = append(r.Loss, cv)
		}
	}
	r.Generations = generationRows(c.st.History)
	if b, err := json.Marshal(c.cfg); err == nil {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				v, _ := json.Marshal(m[k])
				r.Settings = append(r.Settings, [2]string{k, strings.Trim(string(v), `"`)})
			}
		}
	}
	if err := c.kind.report(r); err != nil {
		return nil, err
	}
	return r, nil
}

// lossCurve is the loss curve of a loss CSV (train.ReadLossCSV), named name.
func lossCurve(path, name string) (report.Curve, error) {
	rows, err := train.ReadLossCSV(path)
	if err != nil {
		return report.Curve{}, err
	}
	cv := report.Curve{Name: name}
	for _, s := range rows {
		cv.Step = append(cv.Step, float64(s.Step))
		cv.Loss = append(cv.Loss, s.Total)
	}
	return cv, nil
}

// generationRows are the report's rows of the generations in history.
func generationRows(history []GenResult) []report.Generation {
	var out []report.Generation
	for _, h := range history {
		g := report.Generation{Name: strconv.Itoa(h.Generation), Candidate: filepath.Base(h.Candidate), Games: h.Games,
			Score: h.Score, EloDiff: h.EloDiff, EloErr: h.EloErr, Known: h.Games > 0, Promoted: h.Promoted, Elo: h.Elo}
		g.Gate = fmt.Sprintf("%.1f%% in %d games, %d verdicts", 100*h.Score, h.Games, h.Verdicts)
		if n := h.NNUE; n != nil {
			g.Gate = fmt.Sprintf("SPRT %s after %d games (%.1f%%)", n.SPRT.Verdict, n.SPRTGames, 100*n.SPRTScore)
			if n.Pairs > 0 {
				g.Gate = fmt.Sprintf("SPRT %s after %d pairs %v (%.1f%%)", n.SPRT.Verdict, n.Pairs, n.Pentanomial, 100*n.SPRTScore)
			}
			if n.Ref != nil {
				g.Gate += "; " + n.Ref.String()
			}
			if n.ConfirmGames > 0 {
				g.Gate += fmt.Sprintf("; confirm %.1f%% in %d games", 100*n.ConfirmScore, n.ConfirmGames)
			}
		}
		if h.Promoted {
			g.Gate += "; promoted to " + filepath.Base(h.Model)
		}
		out = append(out, g)
	}
	return out
}

// writeReport writes the run's report.html.
func (c *Cycle) writeReport() error {
	r, err := c.Report()
	if err != nil {
		return err
	}
	return r.WriteFile(filepath.Join(c.dir, ReportFile))
}

// provenanceTable is the provenance rows as the report shows them.
func provenanceTable(rows []ProvRow) *report.Table {
	t := &report.Table{Columns: provenanceColumns}
	for _, p := range rows {
		t.Rows = append(t.Rows, []string{p.Net, p.Parent, p.Arch, strconv.FormatInt(p.PositionsNew, 10),
			strconv.FormatInt(p.PositionsTotal, 10), p.PerMove, strconv.FormatInt(p.Steps, 10), p.TrainWall, p.Gate})
	}
	return t
}

var (
	// gateElo is a gate's Elo as the provenance writes it: "+123 +/- 74", "+241 ± 153".
	gateElo = regexp.MustCompile(`([+-]\d+(?:\.\d+)?) *(?:\+/-|±) *(\d+(?:\.\d+)?)`)
	// gateScore is a gate's score and games: "65.0% (100 games", "67.0% vs 000003 (100 games".
	gateScore = regexp.MustCompile(`(\d+(?:\.\d+)?)%[^(;]*\((\d+) games`)
)

// ShippedReport is the report of the shipped nets of game: the provenance table in dir
// (provenance.tsv), the Elo of each net read from its row's gate (the first "+E +/- err" in
// it, else the first "P% (N games" as N decisive games; a net gated otherwise, by a held-out
// loss, carries the Elo over), and the PNG plots in dir and in its parent (the game's models
// directory: loss and Elo plots of the AlphaZero nets).
func ShippedReport(game, dir string) (*report.Report, error) {
	rows, err := ReadProvenance(filepath.Join(dir, "provenance.tsv"), game)
	if err != nil {
		return nil, err
	}
	r := &report.Report{Title: game + ": the shipped nets", Provenance: provenanceTable(rows)}
	r.Notes = []string{
		"From " + filepath.Join(dir, "provenance.tsv") + " (one row per shipped net). Elo by generation: each net against the net before it, the first figure its gate gives (a net gated by a held-out loss carries the Elo over).",
		"Loss: the value MSE of the training logs kept beside the nets (NNNNNN-train.log); the nets trained before those were kept have only the final figures in the nets' README.",
	}
	elo := 0.0
	for i, p := range rows {
		g := report.Generation{Name: p.Net, Candidate: p.Net + ".nnue", Gate: p.Gate, Promoted: true}
		if m := gateScore.FindStringSubmatch(p.Gate); m != nil {
			pct, _ := strconv.ParseFloat(m[1], 64)
			g.Games, _ = strconv.Atoi(m[2])
			g.Score = pct / 100
		}
		if m := gateElo.FindStringSubmatch(p.Gate); m != nil {
			g.EloDiff, _ = strconv.ParseFloat(m[1], 64)
			g.EloErr, _ = strconv.ParseFloat(m[2], 64)
			g.Known = true
		} else if g.Games > 0 {
			w := int(math.Round(g.Score * float64(g.Games)))
			e := arena.Estimate(w, 0, g.Games-w)
			g.EloDiff, g.EloErr, g.Known = e.Elo, e.Err, true
		}
		if i > 0 && g.Known {
			elo += g.EloDiff
		}
		g.Elo = elo
		r.Generations = append(r.Generations, g)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "*-train.log"))
	sort.Strings(logs)
	for _, path := range logs {
		cv, err := readTrainLog(path)
		if err != nil {
			return nil, err
		}
		r.Loss = append(r.Loss, cv)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		pngs, _ := filepath.Glob(filepath.Join(d, "*.png"))
		sort.Strings(pngs)
		for _, p := range pngs {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			r.Images = append(r.Images, report.Image{Name: p, PNG: b})
		}
	}
	return r, nil
}

// trainLogStep is a progress line of train.RunNNUE's log (train/nnue.go): "step 21000/45000
// value mse 0.2526 lr ...".
var trainLogStep = regexp.MustCompile(`\bstep (\d+)/\d+ value mse ([0-9.]+)`)

// readTrainLog reads the value MSE by step from an NNUE training log (NNNNNN-train.log); it
// fails on a log with no progress line.
func readTrainLog(path string) (report.Curve, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return report.Curve{}, err
	}
	cv := report.Curve{Name: strings.TrimSuffix(filepath.Base(path), "-train.log") + " value MSE"}
	for _, m := range trainLogStep.FindAllStringSubmatch(string(b), -1) {
		step, _ := strconv.ParseFloat(m[1], 64)
		mse, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return cv, fmt.Errorf("%s: %q: %w", path, m[0], err)
		}
		cv.Step, cv.Loss = append(cv.Step, step), append(cv.Loss, mse)
	}
	if len(cv.Step) == 0 {
		return cv, fmt.Errorf("%s: no training progress line (step N/M value mse X)", path)
	}
	return cv, nil
}
