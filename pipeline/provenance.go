package pipeline

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"colony/internal/atomicfile"
	"colony/nn/nnue"
)

// provenanceMagic starts the first line of a net provenance file (provenance.tsv beside the
// nets), followed by the game's name.
const provenanceMagic = "# Colony nnue provenance v1 "

// provenanceColumns are the file's columns, in order (its second line).
var provenanceColumns = []string{"net", "parent", "arch", "positions_new", "positions_total", "per_move", "steps", "train_wall", "gate"}

// ProvRow is one shipped net's provenance: the net it was warm-started from, the positions
// generated for it and all the positions behind it (its parent's total plus its own), how
// they were searched, its training and its gate.
type ProvRow struct {
	Net, Parent, Arch            string
	PositionsNew, PositionsTotal int64
	PerMove                      string
	Steps                        int64
	TrainWall, Gate              string
}

// ReadProvenance reads the provenance file of game's nets; it fails loudly on another
// game's file, another version or a malformed row.
func ReadProvenance(path, game string) ([]ProvRow, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var rows []ProvRow
	for line := 0; sc.Scan(); line++ {
		text := sc.Text()
		switch line {
		case 0:
			rest, ok := strings.CutPrefix(text, provenanceMagic)
			if !ok {
				return nil, fmt.Errorf("%s: not a Colony nnue provenance file (v1): first line %.60q", path, text)
			}
			if g, _, _ := strings.Cut(rest, ":"); strings.TrimSpace(g) != game {
				return nil, fmt.Errorf("%s: provenance of %q, not %s", path, strings.TrimSpace(g), game)
			}
			continue
		case 1:
			if text != strings.Join(provenanceColumns, "\t") {
				return nil, fmt.Errorf("%s: columns %q, want %q", path, text, strings.Join(provenanceColumns, "\t"))
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != len(provenanceColumns) {
			return nil, fmt.Errorf("%s:%d: %d fields, want %d", path, line+1, len(f), len(provenanceColumns))
		}
		r := ProvRow{Net: f[0], Parent: f[1], Arch: f[2], PerMove: f[5], TrainWall: f[7], Gate: f[8]}
		for _, p := range []struct {
			s string
			v *int64
		}{{f[3], &r.PositionsNew}, {f[4], &r.PositionsTotal}, {f[6], &r.Steps}} {
			if *p.v, err = strconv.ParseInt(p.s, 10, 64); err != nil || *p.v < 0 {
				return nil, fmt.Errorf("%s:%d: %q is not a count", path, line+1, p.s)
			}
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 && len(b) == 0 {
		return nil, fmt.Errorf("%s: empty provenance file", path)
	}
	return rows, nil
}

// provRow is the provenance row of net, warm-started from parent (their names: base names
// without the extension) among rows, with its own positions, their search, its training
// steps and time, and its gate.
func provRow(rows []ProvRow, net, parent string, m *nnue.Model, positions int64, perMove string, steps int64, trainSec float64, gate string) ProvRow {
	var behind int64
	if p, ok := provenanceFor(rows, parent); ok {
		behind = p.PositionsTotal
	}
	return ProvRow{Net: net, Parent: parent, Arch: m.Arch.String(), PositionsNew: positions, PositionsTotal: behind + positions,
		PerMove: perMove, Steps: steps, TrainWall: (time.Duration(trainSec) * time.Second).Round(time.Second).String(), Gate: gate}
}

// NewProvenance writes an empty provenance file of game's nets at path.
func NewProvenance(path, game string) error {
	head := provenanceMagic + game + ": one row per best net; positions_total = the net's own training positions plus those behind the net it was warm-started from\n" +
		strings.Join(provenanceColumns, "\t") + "\n"
	return atomicfile.WriteFile(path, []byte(head))
}

// provenanceFor returns the row of net (its base name without the extension) among rows.
func provenanceFor(rows []ProvRow, net string) (ProvRow, bool) {
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Net == net {
			return rows[i], true
		}
	}
	return ProvRow{}, false
}

// AppendProvenance appends r to the provenance file at path (atomically: the whole file is
// rewritten through a temporary file), unless a row for r.Net is already there (a promotion
// redone after a stop).
func AppendProvenance(path, game string, r ProvRow) error {
	rows, err := ReadProvenance(path, game)
	if err != nil {
		return err
	}
	if _, ok := provenanceFor(rows, r.Net); ok {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	clean := func(s string) string {
		s = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s)
		if s == "" {
			return "-"
		}
		return s
	}
	line := []string{clean(r.Net), clean(r.Parent), clean(r.Arch), strconv.FormatInt(r.PositionsNew, 10),
		strconv.FormatInt(r.PositionsTotal, 10), clean(r.PerMove), strconv.FormatInt(r.Steps, 10), clean(r.TrainWall), clean(r.Gate)}
	b = append(b, strings.Join(line, "\t")+"\n"...)
	return atomicfile.WriteFile(path, b)
}
