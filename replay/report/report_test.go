package report

import (
	"bytes"
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
