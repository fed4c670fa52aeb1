// Package report writes the HTML report of a training run: loss curves, the Elo of the best
// net by generation with the gates' error bars, the gate results, the nets' provenance, and
// the run's own PNG plots. The page is one self-contained file (inline CSS and SVG, images as
// data: URLs): it opens from disk with the network off. Package pipeline fills it for a run
// directory and for the shipped nets; this package knows no game and no training code.
package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"colony/internal/atomicfile"
)

// Format and Version name the page's layout (in its colony-report meta element).
const (
	Format  = "colony-training-report"
	Version = 1
)

// Report is one training run, or the shipped nets of a game.
type Report struct {
	Title string
	// Notes are lines shown under the title: where the numbers come from.
	Notes []string
	// Settings are the run's configuration, as name and value.
	Settings [][2]string
	// Loss is one curve per trained generation (step, loss).
	Loss []Curve
	// Generations are the gated candidates in order.
	Generations []Generation
	// Provenance is the nets' provenance table (nil: none).
	Provenance *Table
	// Images are PNG plots shown as they are (the training's loss.png, elo.png).
	Images []Image
	// Made is when the report was written (zero: not shown).
	Made time.Time
}

// Curve is one generation's training loss by step.
type Curve struct {
	Name       string
	Step, Loss []float64
}

// Generation is one gated candidate.
type Generation struct {
	Name      string  // "gen 3", "000004"
	Candidate string  // what was gated
	Games     int     // gate games (0: no match)
	Score     float64 // the candidate's score in the gate
	// EloDiff and EloErr are the candidate's Elo against the best net of its gate, with the
	// 95% error; Known is false when the generation was gated by something else (a held-out
	// loss), and then the chart carries the Elo over.
	EloDiff, EloErr float64
	Known           bool
	Promoted        bool
	// Elo is the best net's Elo after the generation (the first net: 0).
	Elo  float64
	Gate string // how it was gated, in words
}

// Table is a table of strings.
type Table struct {
	Columns []string
	Rows    [][]string
}

// Image is a PNG.
type Image struct {
	Name string
	PNG  []byte
}

// WriteFile writes the page to path through a temporary file and a rename.
func (r *Report) WriteFile(path string) error {
	return atomicfile.Write(path, r.Write)
}

// Write writes the page.
func (r *Report) Write(w io.Writer) error {
	if err := page.Execute(w, r); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// palette colours the curves.
var palette = []string{"#2f6fd6", "#d9483b", "#29a35a", "#c9a400", "#8e44ad", "#e08a1e", "#16a2b8", "#7d8590"}

// chart is a plot area: the data ranges mapped to a w x h SVG with margins.
type chart struct {
	w, h, left, right, top, bottom float64
	x0, x1, y0, y1                 float64
	xTicks                         bool // number the x axis (false: the caller labels it)
	b                              strings.Builder
}

// labelCharWidth is about how wide a character of an axis label (11 px) is drawn.
const labelCharWidth = 6.5

// shortLabel is a generation's name on the x axis: a net's number without its leading zeros
// ("000016": "16"), any other name as it is ("gen 3").
func shortLabel(name string) string {
	if name == "" || strings.Trim(name, "0123456789") != "" {
		return name
	}
	if t := strings.TrimLeft(name, "0"); t != "" {
		return t
	}
	return "0"
}

// xTitle names the Elo chart's x axis.
func (r *Report) xTitle() string {
	for _, g := range r.Generations {
		if shortLabel(g.Name) != g.Name {
			return "net (its number)"
		}
	}
	return "generation"
}

func newChart(x0, x1, y0, y1 float64, xTicks bool) *chart {
	return newChartBottom(x0, x1, y0, y1, xTicks, 36)
}

// newChartBottom is newChart with a bottom margin of bottom pixels (slanted labels need more).
func newChartBottom(x0, x1, y0, y1 float64, xTicks bool, bottom float64) *chart {
	if x1 <= x0 {
		x1 = x0 + 1
	}
	if y1 <= y0 {
		y0, y1 = y0-1, y1+1
	}
	bottom = max(bottom, 36)
	c := &chart{w: 720, h: 224 + bottom, left: 56, right: 150, top: 16, bottom: bottom, x0: x0, x1: x1, y0: y0, y1: y1, xTicks: xTicks}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" class="chart">`, c.w, c.h)
	c.axes()
	return c
}

func (c *chart) x(v float64) float64 {
	return c.left + (v-c.x0)/(c.x1-c.x0)*(c.w-c.left-c.right)
}
func (c *chart) y(v float64) float64 {
	return c.h - c.bottom - (v-c.y0)/(c.y1-c.y0)*(c.h-c.top-c.bottom)
}

// axes draws the frame and four ticks on each axis.
func (c *chart) axes() {
	fmt.Fprintf(&c.b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="frame"/>`,
		c.left, c.top, c.w-c.left-c.right, c.h-c.top-c.bottom)
	for i := range 5 {
		f := float64(i) / 4
		xv, yv := c.x0+f*(c.x1-c.x0), c.y0+f*(c.y1-c.y0)
		if c.xTicks {
			fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="middle">%s</text>`, c.x(xv), c.h-c.bottom+16, num(xv))
		}
		fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="end">%s</text>`, c.left-6, c.y(yv)+4, num(yv))
		fmt.Fprintf(&c.b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="grid"/>`, c.left, c.w-c.right, c.y(yv), c.y(yv))
	}
}

// line draws a polyline of the points with a legend entry in row k.
func (c *chart) line(xs, ys []float64, colour, name string, k int) {
	var pts []string
	for i := range xs {
		if i < len(ys) && !math.IsNaN(ys[i]) && !math.IsInf(ys[i], 0) {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", c.x(xs[i]), c.y(ys[i])))
		}
	}
	fmt.Fprintf(&c.b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.6"/>`, strings.Join(pts, " "), colour)
	c.legend(k, colour, name)
}

func (c *chart) legend(k int, colour, name string) {
	y := c.top + 12 + float64(k)*16
	fmt.Fprintf(&c.b, `<rect x="%.1f" y="%.1f" width="12" height="4" fill="%s"/><text x="%.1f" y="%.1f" class="tick">%s</text>`,
		c.w-c.right+10, y-4, colour, c.w-c.right+26, y, template.HTMLEscapeString(name))
}

func (c *chart) svg() template.HTML {
	c.b.WriteString(`</svg>`)
	return template.HTML(c.b.String())
}

// num writes an axis label with few digits.
func num(v float64) string {
	switch a := math.Abs(v); {
	case a >= 10000:
		return fmt.Sprintf("%.0fk", v/1000)
	case a >= 1000:
		return fmt.Sprintf("%.1fk", v/1000)
	case a >= 10:
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

// LossChart draws the loss curves (the last eight).
func (r *Report) LossChart() template.HTML {
	if len(r.Loss) == 0 {
		return ""
	}
	shown := r.Loss
	if len(shown) > 8 {
		shown = shown[len(shown)-8:]
	}
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, cv := range shown {
		for i, s := range cv.Step {
			x0, x1 = min(x0, s), max(x1, s)
			y0, y1 = min(y0, cv.Loss[i]), max(y1, cv.Loss[i])
		}
	}
	if math.IsInf(x0, 0) {
		return ""
	}
	pad := (y1 - y0) * 0.05
	c := newChart(x0, x1, y0-pad, y1+pad, true)
	for k, cv := range shown {
		c.line(cv.Step, cv.Loss, palette[k%len(palette)], cv.Name, k)
	}
	fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="middle">training step</text>`, (c.left+c.w-c.right)/2, c.h-4)
	return c.svg()
}

// EloChart draws the best net's Elo after each generation, with the gate's error bar.
func (r *Report) EloChart() template.HTML {
	if len(r.Generations) == 0 {
		return ""
	}
	y0, y1 := 0.0, 0.0
	for _, g := range r.Generations {
		y0, y1 = min(y0, g.Elo-g.EloErr), max(y1, g.Elo+g.EloErr)
	}
	n := float64(len(r.Generations))
	// The x axis names each generation by its short label ("000016" as 16); where even those
	// are wider than a generation's slot they are written slanted, below a deeper margin.
	labels, widest := make([]string, len(r.Generations)), 0
	for i, g := range r.Generations {
		labels[i] = shortLabel(g.Name)
		widest = max(widest, len(labels[i]))
	}
	c := newChart(0, n+0.5, y0, y1, false)
	slant := float64(widest)*labelCharWidth > (c.w-c.left-c.right)/(n+0.5)-4
	if slant {
		c = newChartBottom(0, n+0.5, y0, y1, false, 36+float64(widest)*labelCharWidth*0.7)
	}
	fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="middle">start</text>`, c.x(0), c.h-c.bottom+16)
	fmt.Fprintf(&c.b, `<circle cx="%.1f" cy="%.1f" r="4" fill="#7d8590"/>`, c.x(0), c.y(0))
	prev := 0.0
	for i, g := range r.Generations {
		x := c.x(float64(i + 1))
		// The bar is the gate's 95% interval around the candidate's rating (the best net's
		// rating before the gate plus the measured difference).
		mid := prev + g.EloDiff
		if g.Known && g.EloErr > 0 {
			fmt.Fprintf(&c.b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="bar"/>`, x, x, c.y(mid-g.EloErr), c.y(mid+g.EloErr))
			fmt.Fprintf(&c.b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="bar"/><line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" class="bar"/>`,
				x-4, x+4, c.y(mid-g.EloErr), c.y(mid-g.EloErr), x-4, x+4, c.y(mid+g.EloErr), c.y(mid+g.EloErr))
		}
		fill := "#2f6fd6"
		if !g.Promoted || !g.Known {
			fill = "white"
		}
		fmt.Fprintf(&c.b, `<circle cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="#2f6fd6" stroke-width="1.5"><title>%s: %s</title></circle>`,
			x, c.y(g.Elo), fill, template.HTMLEscapeString(g.Name), template.HTMLEscapeString(g.Gate))
		if slant {
			fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick xlabel" text-anchor="end" transform="rotate(-40 %.1f %.1f)">%s</text>`,
				x+3, c.h-c.bottom+14, x+3, c.h-c.bottom+14, template.HTMLEscapeString(labels[i]))
		} else {
			fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick xlabel" text-anchor="middle">%s</text>`, x, c.h-c.bottom+16, template.HTMLEscapeString(labels[i]))
		}
		prev = g.Elo
	}
	fmt.Fprintf(&c.b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="middle">%s</text>`, (c.left+c.w-c.right)/2, c.h-4, r.xTitle())
	c.legend(0, "#2f6fd6", "promoted, measured")
	c.legend(1, "#7d8590", "95% gate interval")
	return c.svg()
}

// cellClass lays out a table cell by its text: a number right-aligned, a short text on one
// line, a long one wrapped in a column of readable width.
func cellClass(text string) string {
	if _, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", ""), 64); err == nil {
		return "num"
	}
	if utf8.RuneCountInString(text) <= 12 {
		return "short"
	}
	return "long"
}

// ImageURL is the image as a data: URL (no file, no network).
func (i Image) ImageURL() template.URL {
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(i.PNG))
}

// Meta is the page's format line.
func (r *Report) Meta() string { return fmt.Sprintf("%s v%d", Format, Version) }

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct": func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) },
	"elo": func(g Generation) string {
		if !g.Known {
			return "–"
		}
		return fmt.Sprintf("%+.0f ± %.0f", g.EloDiff, g.EloErr)
	},
	"rating": func(x float64) string { return fmt.Sprintf("%+.0f", x) },
	"cell":   cellClass,
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="colony-report" content="{{.Meta}}">
<title>{{.Title}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;margin:18px 24px;max-width:1400px}
h1{font-size:20px}h2{font-size:16px;margin-top:26px}
table{border-collapse:collapse;margin:6px 0}th,td{padding:3px 9px;border-bottom:1px solid #d0d7de;text-align:left;vertical-align:top}
th{background:#f6f8fa;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.short{white-space:nowrap}td.long{min-width:12em;overflow-wrap:anywhere}
.wide{overflow-x:auto;max-width:100%}table{font-size:13px}
.note{color:#57606a;margin:2px 0}.chart .frame{fill:#fbfbfb;stroke:#8c959f}.chart .grid{stroke:#eaeef2}
.chart .tick{font-size:11px;fill:#57606a}.chart .bar{stroke:#7d8590;stroke-width:1.4}
img{max-width:520px;border:1px solid #d0d7de;margin:4px 8px 4px 0}
.yes{color:#1a7f37;font-weight:600}.no{color:#cf222e}
</style></head><body>
<h1>{{.Title}}</h1>
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
{{if not .Made.IsZero}}<p class="note">Written {{.Made.UTC.Format "2006-01-02 15:04 MST"}}.</p>{{end}}
<h2>Loss</h2>
{{with .LossChart}}<p class="note">Training loss per step, one curve per generation{{if gt (len $.Loss) 8}} (the last eight){{end}}.</p>{{.}}{{else}}<p class="note" id="no-loss">No loss log (loss.csv) for these nets; the training's own loss plots, where it kept any, are under Plots.</p>{{end}}
<h2>Elo by generation</h2>
{{with .EloChart}}<p class="note">The best net's Elo after each generation (generation 0: 0), each gate's 95% interval as a bar.</p>{{.}}{{else}}<p class="note">No generation gated yet.</p>{{end}}
<h2>Gate results</h2>
{{if .Generations}}<div class="wide"><table id="gates"><tr><th>generation</th><th>candidate</th><th>games</th><th>score</th><th>Elo vs best</th><th>promoted</th><th>best Elo</th><th>gate</th></tr>
{{range .Generations}}<tr><td class="short">{{.Name}}</td><td class="short">{{.Candidate}}</td><td class="num">{{if .Games}}{{.Games}}{{end}}</td><td class="num">{{if .Games}}{{pct .Score}}{{end}}</td><td class="num">{{elo .}}</td><td>{{if .Promoted}}<span class="yes">yes</span>{{else}}<span class="no">no</span>{{end}}</td><td class="num">{{rating .Elo}}</td><td class="long">{{.Gate}}</td></tr>
{{end}}</table></div>{{else}}<p class="note">None.</p>{{end}}
{{with .Provenance}}<h2>Provenance</h2>
<div class="wide"><table id="provenance"><tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td class="{{cell .}}">{{.}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}
{{if .Settings}}<h2>Settings</h2><table id="settings">{{range .Settings}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>{{end}}</table>{{end}}
{{if .Images}}<h2>Plots</h2>{{range .Images}}<figure style="display:inline-block;margin:0"><img src="{{.ImageURL}}" alt="{{.Name}}"><figcaption class="note">{{.Name}}</figcaption></figure>{{end}}{{end}}
</body></html>
`))
