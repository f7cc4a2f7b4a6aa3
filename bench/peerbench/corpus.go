package main

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/browsehq/browse/bench/peer"
)

// corpusPage is one page of the corpus and what each tool made of it.
type corpusPage struct {
	path  string // relative to the corpus directory, with slashes
	size  int64
	sides [2]side
}

// pickCorpus returns the n largest .html files under dir, largest first,
// ties broken by path so every run picks the same pages. The generated
// indexes (contents.html, genindex*.html, py-modindex.html) are left out:
// they are megabyte-long lists of links, not pages an agent reads, and a
// snapshot of one takes seconds.
func pickCorpus(dir string, n int) ([]corpusPage, error) {
	var pages []corpusPage
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		name := d.Name()
		if name == "contents.html" || name == "py-modindex.html" || strings.HasPrefix(name, "genindex") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		pages = append(pages, corpusPage{path: filepath.ToSlash(rel), size: info.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(pages, func(a, b corpusPage) int {
		return cmp.Or(cmp.Compare(b.size, a.size), cmp.Compare(a.path, b.path))
	})
	return pages[:min(n, len(pages))], nil
}

// corpus opens each page with both tools, then times `snapshot -i` on it,
// one run of each tool in turn. A page's figure is the fastest of its runs:
// a snapshot of these pages takes seconds, so there are only a few runs, and
// the fastest is the steadiest estimate of so few.
func (b *bench) corpus(dir, baseURL string, n, runs int) {
	pages, err := pickCorpus(dir, n)
	if err != nil || len(pages) == 0 {
		b.skipRow("corpus", fmt.Sprintf("no pages under %s (%v)", dir, err))
		return
	}
	// Progress goes to stderr, so stdout stays the report.
	fmt.Fprintf(os.Stderr, "corpus: snapshot -i of the %d largest pages under %s (%d runs each)...\n", len(pages), dir, runs)
	for i := range pages {
		p := &pages[i]
		url := baseURL + p.path
		for _, who := range order(i) {
			s := &p.sides[who]
			if !b.usable(who, s) {
				continue
			}
			goTo := []string{"goto", url}
			if who == agent {
				goTo = []string{"open", url}
			}
			if _, _, err := b.tools[who].Run(goTo...); err != nil {
				s.err = err
			}
		}
		for run := range runs {
			for _, who := range order(i + run) {
				p.sides[who].time(b.tools[who], "snapshot", "-i")
			}
		}
	}

	// The per-page ratios, over the pages both tools got through.
	var timeRatios, byteRatios []float64
	var failed [2]int
	for _, p := range pages {
		ok := true
		for who, s := range p.sides {
			if s.err != nil || len(s.times) == 0 {
				ok = false
				failed[who]++
				if s.err != nil && b.down[who] == nil {
					b.skipped = append(b.skipped, fmt.Sprintf("corpus page %s (%s): %v", p.path, b.toolName(who), s.err))
				}
			}
		}
		if !ok {
			continue
		}
		timeRatios = append(timeRatios, float64(slices.Min(p.sides[browse].times))/float64(slices.Min(p.sides[agent].times)))
		if p.sides[agent].bytes > 0 {
			byteRatios = append(byteRatios, float64(p.sides[browse].bytes)/float64(p.sides[agent].bytes))
		}
	}
	// The tool columns hold the median (or p90) over pages of each tool's own
	// per-page figure; the ratio column is the median (or p90) of the per-page
	// ratios, which is not the ratio of the two columns.
	perPage := func(who int, bytes bool) []float64 {
		var xs []float64
		for _, p := range pages {
			s := p.sides[who]
			if s.err != nil || len(s.times) == 0 {
				continue
			}
			if bytes {
				xs = append(xs, float64(s.bytes))
			} else {
				xs = append(xs, float64(slices.Min(s.times)))
			}
		}
		return xs
	}
	label := fmt.Sprintf("corpus, %d pages (%d–%d KB): snapshot -i", len(pages), pages[len(pages)-1].size/1024, pages[0].size/1024)
	for _, q := range []struct {
		name string
		p    float64
	}{{"median", 0.5}, {"p90", 0.9}} {
		timeCells, byteCells := [2]string{}, [2]string{}
		for who := range 2 {
			timeCells[who], byteCells[who] = "skipped", "skipped"
			if xs := perPage(who, false); len(xs) > 0 {
				timeCells[who] = peer.MS(time.Duration(peer.Quantile(xs, q.p)))
			}
			if xs := perPage(who, true); len(xs) > 0 {
				byteCells[who] = fmt.Sprintf("%.0f", peer.Quantile(xs, q.p))
			}
		}
		b.rows = append(b.rows,
			[]string{label + " time, " + q.name + " page", timeCells[browse], timeCells[agent], ratioCell(timeRatios, q.p)},
			[]string{label + " bytes, " + q.name + " page", byteCells[browse], byteCells[agent], ratioCell(byteRatios, q.p)},
		)
	}
	largest := pages[0]
	name := fmt.Sprintf("corpus largest page, %s (%d KB): snapshot -i", largest.path, largest.size/1024)
	b.rows = append(b.rows, []string{name + " time, fastest run", fastest(largest.sides[browse]), fastest(largest.sides[agent]), fastestRatio(largest.sides)})
	b.noteFailures(name, largest.sides)
	b.bytesRow(name+" bytes", largest.sides)
	b.notes = append(b.notes, fmt.Sprintf("Corpus rows: each tool's column is the median (p90) over pages of its per-page figure (fastest run); the ratio is the median (p90) of the per-page ratios, over the %d pages both tools snapshotted (failed: browse %d, agent-browser %d).", len(timeRatios), failed[browse], failed[agent]))
}

func (b *bench) toolName(who int) string {
	if who == browse {
		return "browse"
	}
	return "agent-browser"
}

func ratioCell(ratios []float64, p float64) string {
	if len(ratios) == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", peer.Quantile(ratios, p))
}

func fastest(s side) string {
	if s.err != nil || len(s.times) == 0 {
		return "skipped"
	}
	return peer.MS(slices.Min(s.times))
}

func fastestRatio(s [2]side) string {
	for _, x := range s {
		if x.err != nil || len(x.times) == 0 {
			return "–"
		}
	}
	return fmt.Sprintf("%.2f×", float64(slices.Min(s[browse].times))/float64(slices.Min(s[agent].times)))
}
