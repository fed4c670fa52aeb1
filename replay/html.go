package replay

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strings"

	"colony/internal/atomicfile"
)

// The page's style and program, inlined into every page (no file or network access).
var (
	//go:embed assets/viewer.css
	viewerCSS string
	//go:embed assets/viewer.js
	viewerJS string
)

// PageFormat and PageVersion identify the data a page carries (the script reads them).
const (
	PageFormat  = "colony-replay"
	PageVersion = 1
)

// Page is what one HTML file shows: one game, or a run of games with its standings.
type Page struct {
	Format    string      `json:"format"`
	Version   int         `json:"version"`
	Title     string      `json:"title"`
	Games     []*Game     `json:"games"`
	Standings []*Standing `json:"standings,omitempty"`
	// Summary is the arena's summary.json of the run, shown as it is (nil: none).
	Summary json.RawMessage `json:"summary,omitempty"`
	// SeedText is the run's seed exactly as the summary gives it ("": none): a JavaScript
	// number holds 53 bits, so the page shows this text, with which the run can be replayed.
	SeedText string `json:"seed_text,omitempty"`
}

// NewPage is the page of games: a single replay for one game, a run view with standings,
// filters and every game for more.
func NewPage(gs []*Game, summary json.RawMessage) *Page {
	for _, g := range gs {
		g.evaluations()
	}
	p := &Page{Format: PageFormat, Version: PageVersion, Games: gs, Summary: summary, SeedText: seedText(summary)}
	switch {
	case len(gs) == 1 && summary == nil:
		p.Title = gs[0].Title
	default:
		p.Title = runTitle(gs)
		p.Standings = Standings(gs, entryCommands(summary))
	}
	return p
}

// seedText is the "seed" of a summary as its JSON text ("" when it has none).
func seedText(summary json.RawMessage) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(summary, &fields) != nil {
		return ""
	}
	var n json.Number
	if json.Unmarshal(fields["seed"], &n) != nil {
		return ""
	}
	return n.String()
}

// Write writes the page as one self-contained HTML document.
func (p *Page) Write(w io.Writer) error {
	data, err := json.Marshal(p) // escapes <, > and &: safe inside a script element
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	_, err = fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>%s</style>
</head><body>
<header><h1 id="page-title">%s</h1></header>
<section id="run" hidden></section>
<section id="viewer"></section>
<script id="replay-data" type="application/json">%s</script>
<script>%s</script>
</body></html>
`, html.EscapeString(p.Title), viewerCSS, html.EscapeString(p.Title), data, viewerJS)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}

// WriteFile writes the page to path through a temporary file and a rename.
func (p *Page) WriteFile(path string) error {
	return atomicfile.Write(path, p.Write)
}

// Build reads the game records and run folders at paths (Load, LoadDir) into one page: a
// replay for a single record, a run view for a folder or several records. game names the
// game of version-1 King-of-the-Hill records, which do not ("": from the run's summary).
func Build(paths []string, game string) (*Page, error) {
	if len(paths) == 0 {
		return nil, errors.New("replay: no game record or run folder given")
	}
	var gs []*Game
	var summary json.RawMessage
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		if !st.IsDir() {
			g, err := Load(p, game)
			if err != nil {
				return nil, err
			}
			gs = append(gs, g)
			continue
		}
		more, sum, err := LoadDir(p, game)
		if err != nil {
			return nil, err
		}
		gs = append(gs, more...)
		if len(paths) == 1 {
			summary = sum
		}
	}
	return NewPage(gs, summary), nil
}

// DefaultOutput is where view writes the page of paths when not told: index.html in a run
// folder, the record's name with .html for one record, replay.html for several.
func DefaultOutput(paths []string) string {
	if len(paths) != 1 {
		return "replay.html"
	}
	if st, err := os.Stat(paths[0]); err == nil && st.IsDir() {
		return filepath.Join(paths[0], "index.html")
	}
	return strings.TrimSuffix(paths[0], filepath.Ext(paths[0])) + ".html"
}
