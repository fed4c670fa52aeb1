package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestWrite: one page with the loss curve, the Elo points and bars, the tables and the
// image inline; text from the run is escaped.
func TestWrite(t *testing.T) {
	r := &Report{
		Title:       "run <script>alert(1)</script>",
		Loss:        []Curve{{Name: "gen-0001", Step: []float64{1, 2, 3}, Loss: []float64{2, 1.5, 1.2}}},
		Generations: []Generation{{Name: "1", Games: 40, Score: 0.6, EloDiff: 70, EloErr: 100, Known: true, Promoted: true, Elo: 70}, {Name: "2", Elo: 70}},
		Provenance:  &Table{Columns: []string{"net"}, Rows: [][]string{{"000001"}}},
		Images:      []Image{{Name: "elo.png", PNG: []byte("\x89PNG")}},
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<polyline", `class="bar"`, `id="gates"`, `id="provenance"`, "data:image/png;base64,", "70 ± 100", "colony-training-report v1"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("the title was not escaped")
	}
	var empty bytes.Buffer
	if err := (&Report{Title: "nothing yet"}).Write(&empty); err != nil || !strings.Contains(empty.String(), "No generation gated yet") {
		t.Errorf("an empty report: %v", err)
	}
}

// TestEloChartLabels: the Elo chart's x labels do not run into each other: nets go by their
// numbers (000016 as 16), upright while they fit their slots; names too wide for the slots are
// slanted.
func TestEloChartLabels(t *testing.T) {
	labels := func(names []string) (xs []float64, texts []string, slanted bool) {
		r := &Report{Title: "t"}
		for i, n := range names {
			r.Generations = append(r.Generations, Generation{Name: n, Known: true, Promoted: true, EloDiff: 10, EloErr: 20, Elo: float64(10 * i)})
		}
		svg := string(r.EloChart())
		re := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*class="tick xlabel"([^>]*)>([^<]*)</text>`)
		for _, m := range re.FindAllStringSubmatch(svg, -1) {
			x, _ := strconv.ParseFloat(m[1], 64)
			xs, texts = append(xs, x), append(texts, m[3])
			slanted = slanted || strings.Contains(m[2], "rotate(")
		}
		return xs, texts, slanted
	}
	var nets []string
	for i := 1; i <= 16; i++ {
		nets = append(nets, fmt.Sprintf("%06d", i))
	}
	xs, texts, slanted := labels(nets)
	if len(texts) != 16 || texts[0] != "1" || texts[15] != "16" || slanted {
		t.Fatalf("nets' labels %q (slanted %v)", texts, slanted)
	}
	for i := 1; i < len(xs); i++ {
		if gap := xs[i] - xs[i-1]; gap < float64(len(texts[i])+len(texts[i-1]))/2*labelCharWidth+4 {
			t.Errorf("labels %q and %q are %.1f px apart: they run together", texts[i-1], texts[i], gap)
		}
	}
	var gens []string
	for i := 1; i <= 30; i++ {
		gens = append(gens, fmt.Sprintf("gen %d", i))
	}
	if _, texts, slanted := labels(gens); len(texts) != 30 || texts[29] != "gen 30" || !slanted {
		t.Errorf("30 generations' labels %q: slanted %v, want slanted", texts, slanted)
	}
}
