package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShippedReport: the report of the shipped Bacteria War nets reads every provenance row,
// takes each gate's Elo from its text, and writes one page with its charts and tables.
func TestShippedReport(t *testing.T) {
	r, err := ShippedReport("bacteria-war", "../models/bacteria-war/nnue")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Generations) < 5 || len(r.Provenance.Rows) != len(r.Generations) {
		t.Fatalf("%d generations, %d provenance rows", len(r.Generations), len(r.Provenance.Rows))
	}
	byNet := map[string]float64{}
	for _, g := range r.Generations {
		byNet[g.Name] = g.EloDiff
	}
	// 000004: "67.0% vs 000003 (100 games at 4 s, +123 +/- 74)"; 000003: "65.0% (100 games"
	// read as 65 wins and 35 losses.
	if byNet["000004"] != 123 || byNet["000003"] < 100 || byNet["000003"] > 115 {
		t.Errorf("Elo by net %v", byNet)
	}
	if len(r.Loss) == 0 || len(r.Loss[0].Step) < 10 || r.Loss[0].Step[0] != 21000 {
		t.Errorf("loss curves %+v: want 000005's training log from step 21000", r.Loss)
	}
	if _, err := ShippedReport("slime", "../models/bacteria-war/nnue"); err == nil {
		t.Error("another game's provenance was read")
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{`content="colony-training-report v1"`, `<svg`, `id="gates"`, `id="provenance"`, "000005"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, link := range []string{`src="http`, `href="http`, `url(http`, `src="//`} {
		if strings.Contains(page, link) {
			t.Errorf("the page loads from the network (%s...)", link)
		}
	}
}

// TestCommittedReport: docs/training-report.html, the shipped nets' report that the README
// links, names every net of provenance.tsv in its gate and provenance tables, and is exactly
// what `make report` writes from the committed provenance and training logs now.
func TestCommittedReport(t *testing.T) {
	t.Chdir("..") // the repository root, where `make report` runs
	dir := filepath.Join("models", "bacteria-war", "nnue")
	rows, err := ReadProvenance(filepath.Join(dir, "provenance.tsv"), "bacteria-war")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("docs", "training-report.html"))
	if err != nil {
		t.Fatal(err)
	}
	committed := string(b)
	section := func(id string) string {
		i := strings.Index(committed, `<table id="`+id+`">`)
		if i < 0 {
			t.Fatalf("docs/training-report.html has no %s table", id)
		}
		j := strings.Index(committed[i:], "</table>")
		if j < 0 {
			t.Fatalf("docs/training-report.html: the %s table does not end", id)
		}
		return committed[i : i+j]
	}
	gates, prov := section("gates"), section("provenance")
	for _, p := range rows {
		for name, table := range map[string]string{"gates": gates, "provenance": prov} {
			if !regexp.MustCompile(`<tr><td[^>]*>` + regexp.QuoteMeta(p.Net) + `</td>`).MatchString(table) {
				t.Errorf("provenance.tsv names net %s, the committed report's %s table lacks it: run make report", p.Net, name)
			}
		}
	}
	r, err := ShippedReport("bacteria-war", dir)
	if err != nil {
		t.Fatal(err)
	}
	var fresh bytes.Buffer
	if err := r.Write(&fresh); err != nil {
		t.Fatal(err)
	}
	if fresh.String() != committed {
		t.Error("docs/training-report.html is not what the committed provenance and logs give now: run make report")
	}
}
