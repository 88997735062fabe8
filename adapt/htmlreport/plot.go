package htmlreport

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// The HTML report's plots are inline SVG drawn here, not with
// gonum.org/v1/plot: its fonts, PDF and image backends would add about
// 9 MB to every program that imports adapt (a one-bar-chart program builds
// to 11 MB, quickstart to 13 MB) and eight modules to its go.mod, for four
// plain chart kinds; and its SVG places text by Liberation font metrics
// at fixed point sizes, where these inherit the page's font, scale with
// their viewBox and carry a tooltip (<title>) on every mark.

// palette is Okabe and Ito's colour-blind-safe set, one colour a series.
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"}

func seriesColor(i int) string { return palette[i%len(palette)] }

// plotBar is one bar: a value with an optional interval, and what its
// tooltip says.
type plotBar struct {
	Value  float64
	Lo, Hi float64
	HasCI  bool
	Tip    string
	N      int  // how many values the bar averages
	Absent bool // no value: nothing drawn
}

// plotGroup is one x position: a bar per series.
type plotGroup struct {
	Label string
	Bars  []plotBar
}

// num formats a coordinate with at most two decimals.
func num(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

func esc(s string) string { return html.EscapeString(s) }

// clipLabel shortens an axis label to n runes, marking the cut.
func clipLabel(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// plotCSS styles every plot from inside its own <svg>, so that a plot
// saved from the page (its download link) looks as it does there.
const plotCSS = `<style>text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}` +
	`.pt{font-size:14px;font-weight:600;text-anchor:middle}.ft{font-size:12px;font-weight:600;text-anchor:middle}` +
	`.tick,.lg{font-size:11px;fill:#333}.ax{font-size:12px;fill:#333}.val{font-size:9.5px;fill:#222}.val.in{fill:#fff}` +
	`.grid{stroke:#e6e9ed}.axis{stroke:#555}.sep{stroke:#bbb;stroke-dasharray:3 3}.wh{stroke:#222;stroke-width:1.3;fill:none}` +
	`.zero{stroke-width:1.2;fill-opacity:.25}.pair{stroke:#999;stroke-width:.7;stroke-opacity:.6}</style>`

// facet is one panel of a faceted bar chart: its groups share the chart's
// y axis and series.
type facet struct {
	Name   string
	Groups []plotGroup
}

// barChart draws grouped bars on a 0–100% axis with 95% interval
// whiskers, and a legend naming the series when there are several.
func barChart(title, ylabel string, series []string, groups []plotGroup) string {
	return facetChart(title, ylabel, series, []facet{{Groups: groups}})
}

// wideGroups reports whether a bar chart of groups groups of series bars
// is too crowded for half the page: more than 8 groups (or bars) take its
// whole width.
func wideGroups(groups, series int) bool { return groups*max(series, 1) > 8 }

// labelRunes is how much of an x label is kept: enough for AdaptEval's
// longest adaptation type, "Method_Signature.Rename_Func".
const labelRunes = 40

// facetChart draws bar charts side by side, one panel per facet, on one
// shared 0–100% axis. Each bar carries its value and its count (n) as
// text, so that the figure reads without tooltips, in print; a bar of 0%
// is drawn as an outlined stub so that it is seen as a value, not as a
// missing one.
func facetChart(title, ylabel string, series []string, facets []facet) string {
	total, longest := 0, 0
	for _, f := range facets {
		total += len(f.Groups)
		for _, g := range f.Groups {
			longest = max(longest, len([]rune(clipLabel(g.Label, labelRunes))))
		}
	}
	rotate := total > 6 || longest > 14
	left, right, top, ph := 52.0, 12.0, 30.0, 190.0
	bottom := 36.0
	if rotate {
		// A label at -40° needs about 0.64 of its length below the axis.
		bottom = 24 + 0.64*6*float64(longest)
		// and about 0.77 of it to the left of its bar: the first
		// group's label must not leave the picture.
		left = max(left, 0.77*6*float64(longest)-11)
	}
	w := max(640.0, left+right+float64(total*max(len(series), 1))*22+float64(len(facets)-1)*16)
	if wideGroups(total, len(series)) {
		// Drawn across the page's width (see htmlPlot.Wide): as wide
		// as the page, so that its text is not scaled down.
		w = max(1240, left+right+float64(total*max(len(series), 1))*34+float64(len(facets)-1)*16)
	}
	if len(series) > 1 {
		top += 18 // the legend
	}
	facetY := top + 12
	if len(facets) > 1 || facets[0].Name != "" {
		top += 18
	}
	top += 14 // the value above a full bar
	h := top + ph + bottom
	pw := w - left - right - float64(len(facets)-1)*16
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %s %s" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">%s`, num(w), num(h), esc(title), plotCSS)
	fmt.Fprintf(&b, `<text class="pt" x="%s" y="18">%s</text>`, num(w/2), esc(title))
	for i, s := range series {
		if len(series) < 2 {
			break
		}
		x := left + float64(i)*170
		fmt.Fprintf(&b, `<rect x="%s" y="28" width="10" height="10" fill="%s"/><text class="lg" x="%s" y="37">%s</text>`,
			num(x), seriesColor(i), num(x+14), esc(clipLabel(s, 24)))
	}
	y := func(v float64) float64 { return top + ph*(1-v) }
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line class="grid" x1="%s" x2="%s" y1="%s" y2="%s"/><text class="tick" x="%s" y="%s" text-anchor="end">%s%%</text>`,
			num(left), num(w-right), num(y(t)), num(y(t)), num(left-6), num(y(t)+4), num(100*t))
	}
	fmt.Fprintf(&b, `<text class="ax" transform="translate(14 %s) rotate(-90)" text-anchor="middle">%s</text>`, num(top+ph/2), esc(ylabel))
	gw := pw / float64(max(total, 1))
	bw := min(gw*0.8/float64(max(len(series), 1)), 48)
	x := left
	for fi, f := range facets {
		if fi > 0 {
			fmt.Fprintf(&b, `<line class="sep" x1="%s" x2="%s" y1="%s" y2="%s"/>`, num(x+8), num(x+8), num(facetY-10), num(top+ph))
			x += 16
		}
		if f.Name != "" {
			fmt.Fprintf(&b, `<text class="ft" x="%s" y="%s">%s</text>`, num(x+gw*float64(len(f.Groups))/2), num(facetY), esc(clipLabel(f.Name, int(gw*float64(len(f.Groups))/7)+3)))
		}
		for _, g := range f.Groups {
			cx := x + gw/2
			drawBars(&b, g, cx-bw*float64(len(series))/2, bw, y)
			label := esc(clipLabel(g.Label, labelRunes))
			if rotate {
				fmt.Fprintf(&b, `<text class="tick" transform="translate(%s %s) rotate(-40)" text-anchor="end">%s</text>`, num(cx+3), num(top+ph+12), label)
			} else {
				fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, num(cx), num(top+ph+16), label)
			}
			x += gw
		}
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%s" x2="%s" y1="%s" y2="%s"/></svg>`, num(left), num(w-right), num(y(0)), num(y(0)))
	return b.String()
}

// drawBars draws one group's bars from x0, each bw wide, with their
// whiskers and their "value (n)" text: above the whisker, turned upright
// when the bar is too narrow for it, and inside the bar's top when there
// is no room above.
func drawBars(b *strings.Builder, g plotGroup, x0, bw float64, y func(float64) float64) {
	for si, bar := range g.Bars {
		if bar.Absent {
			continue
		}
		x := x0 + bw*float64(si)
		mx := x + bw/2
		v := math.Max(0, math.Min(1, bar.Value))
		fmt.Fprintf(b, `<g><title>%s</title>`, esc(bar.Tip))
		if v == 0 {
			fmt.Fprintf(b, `<rect class="zero" x="%s" y="%s" width="%s" height="3" fill="%s" stroke="%s"/>`,
				num(x+1), num(y(0)-3), num(bw-2), seriesColor(si), seriesColor(si))
		} else {
			fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
				num(x+1), num(min(y(v), y(0)-1.5)), num(bw-2), num(max(y(0)-y(v), 1.5)), seriesColor(si))
		}
		top := y(v) - 3
		if bar.HasCI {
			fmt.Fprintf(b, `<path class="wh" d="M%s %sV%sM%s %sH%sM%s %sH%s"/>`,
				num(mx), num(y(bar.Lo)), num(y(bar.Hi)),
				num(mx-4), num(y(bar.Lo)), num(mx+4), num(mx-4), num(y(bar.Hi)), num(mx+4))
			top = y(bar.Hi) - 3
		}
		text := fmt.Sprintf("%s%% (%d)", num(math.Round(1000*bar.Value)/10), bar.N)
		length := 5.3 * float64(len(text))
		switch {
		case bw >= length+2:
			fmt.Fprintf(b, `<text class="val" x="%s" y="%s" text-anchor="middle">%s</text>`, num(mx), num(top), text)
		case top-length >= y(1)-12:
			fmt.Fprintf(b, `<text class="val" transform="translate(%s %s) rotate(-90)">%s</text>`, num(mx+3.5), num(top), text)
		case bar.HasCI && y(0)-y(bar.Lo)-6 >= length:
			// Inside the bar, below the whisker's low end, not over it.
			fmt.Fprintf(b, `<text class="val in" transform="translate(%s %s) rotate(-90)" text-anchor="end">%s</text>`, num(mx+3.5), num(y(bar.Lo)+6), text)
		case bar.HasCI && bw >= 24:
			// Inside the bar, beside the whisker (left of its line and
			// caps), not over it.
			fmt.Fprintf(b, `<text class="val in" transform="translate(%s %s) rotate(-90)" text-anchor="end">%s</text>`, num(mx-5), num(y(v)+4), text)
		default:
			fmt.Fprintf(b, `<text class="val in" transform="translate(%s %s) rotate(-90)" text-anchor="end">%s</text>`, num(mx+3.5), num(y(v)+4), text)
		}
		b.WriteString(`</g>`)
	}
}

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		lo, hi = lo-0.5, hi+0.5
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []float64
	for t := math.Floor(lo/step) * step; t <= hi+step*1e-9; t += step {
		ts = append(ts, math.Round(t/step)*step)
	}
	if ts[len(ts)-1] < hi {
		ts = append(ts, ts[len(ts)-1]+step)
	}
	return ts
}

func tickLabel(v float64) string {
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// scatterChart draws the series of s as points, with a line from each
// point of the first series to the same point of the second when
// s.Paired.
func scatterChart(title string, s *report.Scatter) string {
	const w, h = 640.0, 360.0
	left, right, top, bottom := 60.0, 16.0, 48.0, 44.0
	pw, ph := w-left-right, h-top-bottom
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, se := range s.Series {
		for _, p := range se.Points {
			if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
				continue
			}
			minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
			minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
		}
	}
	if math.IsInf(minX, 1) {
		minX, maxX, minY, maxY = 0, 1, 0, 1
	}
	xt, yt := niceTicks(minX, maxX, 6), niceTicks(minY, maxY, 5)
	x0, x1, y0, y1 := xt[0], xt[len(xt)-1], yt[0], yt[len(yt)-1]
	px := func(v float64) float64 { return left + pw*(v-x0)/(x1-x0) }
	py := func(v float64) float64 { return top + ph*(1-(v-y0)/(y1-y0)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %s %s" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">%s`, num(w), num(h), esc(title), plotCSS)
	fmt.Fprintf(&b, `<text class="pt" x="%s" y="18">%s</text>`, num(w/2), esc(title))
	for i, se := range s.Series {
		x := left + float64(i)*170
		fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="5" fill="%s"/><text class="lg" x="%s" y="%s">%s (%d)</text>`,
			num(x+5), num(top-17), seriesColor(i), num(x+14), num(top-13), esc(clipLabel(se.Name, 20)), len(se.Points))
	}
	for _, t := range xt {
		fmt.Fprintf(&b, `<line class="grid" x1="%s" x2="%s" y1="%s" y2="%s"/><text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`,
			num(px(t)), num(px(t)), num(top), num(top+ph), num(px(t)), num(top+ph+16), tickLabel(t))
	}
	for _, t := range yt {
		fmt.Fprintf(&b, `<line class="grid" x1="%s" x2="%s" y1="%s" y2="%s"/><text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`,
			num(left), num(left+pw), num(py(t)), num(py(t)), num(left-6), num(py(t)+4), tickLabel(t))
	}
	fmt.Fprintf(&b, `<text class="ax" x="%s" y="%s" text-anchor="middle">%s</text>`, num(left+pw/2), num(h-6), esc(s.XLabel))
	fmt.Fprintf(&b, `<text class="ax" transform="translate(14 %s) rotate(-90)" text-anchor="middle">%s</text>`, num(top+ph/2), esc(s.YLabel))
	ok := func(p report.Point) bool {
		return !math.IsNaN(p.X) && !math.IsNaN(p.Y) && !math.IsInf(p.X, 0) && !math.IsInf(p.Y, 0)
	}
	if s.Paired && len(s.Series) >= 2 {
		a, c := s.Series[0].Points, s.Series[1].Points
		for i := range min(len(a), len(c)) {
			if ok(a[i]) && ok(c[i]) {
				fmt.Fprintf(&b, `<line class="pair" x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(px(a[i].X)), num(py(a[i].Y)), num(px(c[i].X)), num(py(c[i].Y)))
			}
		}
	}
	for i, se := range s.Series {
		for _, p := range se.Points {
			if !ok(p) {
				continue
			}
			tip := fmt.Sprintf("%s: %s = %s, %s = %s", se.Name, s.XLabel, tickLabel(p.X), s.YLabel, tickLabel(p.Y))
			if p.Label != "" {
				tip = p.Label + " — " + tip
			}
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3.5" fill="%s" fill-opacity="0.75"><title>%s</title></circle>`, num(px(p.X)), num(py(p.Y)), seriesColor(i), esc(tip))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// funnelChart draws a funnel's stage totals as horizontal bars, each
// labelled with its count and its share of the first stage. A stage
// among branches is drawn beside the main line, off the stage before it
// (an arrow "↳", a lighter bar), not as a stage of the line.
func funnelChart(title string, f *report.Funnel, branches []string) string {
	stages := f.Stages()
	const w = 640.0
	left, top, rowH := 150.0, 30.0, 26.0
	h := top + rowH*float64(len(stages)) + 10
	pw := w - left - 90
	first := 0
	if len(stages) > 0 {
		first = f.Total(stages[0])
	}
	top0 := 0
	for _, s := range stages {
		top0 = max(top0, f.Total(s))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %s %s" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">%s`, num(w), num(h), esc(title), plotCSS)
	fmt.Fprintf(&b, `<text class="pt" x="%s" y="18">%s</text>`, num(w/2), esc(title))
	for i, s := range stages {
		n := f.Total(s)
		bw := 0.0
		if top0 > 0 {
			bw = pw * float64(n) / float64(top0)
		}
		y := top + rowH*float64(i)
		share := ""
		if first > 0 {
			share = fmt.Sprintf(" (%s%%)", num(100*float64(n)/float64(first)))
		}
		label, color, x := s, seriesColor(0), left+(pw-bw)/2
		if slices.Contains(branches, s) {
			// Off the main line: flush left under the stage it leaves,
			// with an arrow from it.
			label, color, x = "↳ "+s, seriesColor(1), left
			fmt.Fprintf(&b, `<path d="M%s %s V%s H%s" fill="none" stroke="#888" stroke-width="1"/>`, num(left-4), num(y-2), num(y+rowH/2), num(left))
		}
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, num(left-8), num(y+rowH/2+4), esc(clipLabel(label, 24)))
		fmt.Fprintf(&b, `<g><title>%s: %d%s</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s"/></g>`,
			esc(s), n, share, num(x), num(y+3), num(math.Max(bw, 1)), num(rowH-6), color)
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s">%d%s</text>`, num(left+pw+6), num(y+rowH/2+4), n, share)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// hbarChart draws labelled counts as horizontal bars, each with its count
// and its share of the total: a figure that reads whatever the number of
// rows (a single run's outcomes).
func hbarChart(title string, labels []string, counts []int) string {
	const w = 640.0
	left, top, rowH := 150.0, 30.0, 22.0
	h := top + rowH*float64(len(labels)) + 10
	pw := w - left - 110
	total, most := 0, 0
	for _, n := range counts {
		total += n
		most = max(most, n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="plot" viewBox="0 0 %s %s" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">%s`, num(w), num(h), esc(title), plotCSS)
	fmt.Fprintf(&b, `<text class="pt" x="%s" y="18">%s</text>`, num(w/2), esc(title))
	for i, l := range labels {
		n := counts[i]
		y := top + rowH*float64(i)
		bw := 0.0
		if most > 0 {
			bw = pw * float64(n) / float64(most)
		}
		share := ""
		if total > 0 {
			share = fmt.Sprintf(" (%s%%)", num(math.Round(1000*float64(n)/float64(total))/10))
		}
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, num(left-8), num(y+rowH/2+4), esc(clipLabel(l, 24)))
		fmt.Fprintf(&b, `<g><title>%s: %d%s</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s"/></g>`,
			esc(l), n, share, num(left), num(y+3), num(math.Max(bw, 1)), num(rowH-6), seriesColor(0))
		fmt.Fprintf(&b, `<text class="val" x="%s" y="%s">%d%s</text>`, num(left+bw+6), num(y+rowH/2+4), n, share)
	}
	b.WriteString(`</svg>`)
	return b.String()
}
