package main

// The visual commands (screenshots and PDF) timed against agent-browser, the
// fastest peer: a Rust CLI in front of its own long-lived daemon, so both
// tools pay a fresh process per command and a warm browser behind it. The
// two run in the same bench, on the same page, one run of each in turn, so a
// noisy machine slows both alike.

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png" // image.DecodeConfig reads the PNG header
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/browsehq/browse/bench/peer"
)

// visual is one capture, as each tool spells it; the output path is appended.
type visual struct {
	what          string
	ext           string
	browse, agent []string
}

// browse scales a full-page shot down to at most 2000 px a side unless told
// --full-resolution; agent-browser never does, so both forms are timed.
var visuals = []visual{
	{"screenshot, viewport", ".png", []string{"screenshot", "--viewport"}, []string{"screenshot"}},
	{"screenshot, full page", ".png", []string{"screenshot"}, []string{"screenshot", "--full"}},
	{"screenshot, full page (browse --full-resolution)", ".png", []string{"screenshot", "--full-resolution"}, []string{"screenshot", "--full"}},
	{"pdf", ".pdf", []string{"pdf"}, []string{"pdf"}},
}

// capture is what one tool did for one visual.
type capture struct {
	times []time.Duration
	bytes int64
	shape string // pixel size of a PNG, page count of a PDF
	err   error  // the first failure; the tool is not run again for this visual
}

// shoot runs one capture into path, which it removes first so a stale file
// cannot pass for a new one, and records the time and the file's size.
func (c *capture) shoot(t *peer.Tool, args []string, path string) {
	if c.err != nil {
		return
	}
	os.Remove(path)
	d, _, err := t.Run(slices.Concat(args, []string{path})...)
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(path); err == nil {
			c.bytes = st.Size()
		}
	}
	if err != nil {
		c.err = err
		return
	}
	c.times = append(c.times, d)
}

// comparePeers prints the section. Whatever goes wrong with agent-browser
// is one line, and the section is skipped; browse failing a command marks
// that cell instead, so the peer's figures still show.
func comparePeers(b *bencher, agentBin, pageURL string, runs int) {
	fmt.Printf("\nVisual commands against agent-browser (same run, interleaved; %d runs each, viewport 1280x720)\n\n", runs)
	if agentBin == "" {
		fmt.Println("skipped: no agent-browser binary given (-agent-browser; `make bench` installs one with scripts/install-agent-browser.sh)")
		return
	}
	dir, err := os.MkdirTemp("", "browse-bench-peer")
	if err != nil {
		fmt.Println("skipped:", err)
		return
	}
	defer os.RemoveAll(dir)
	ab, err := peer.AgentBrowser(agentBin, dir, "browse-bench")
	if err != nil {
		fmt.Println("skipped: agent-browser cannot start:", err)
		return
	}
	_, version, err := ab.Run("--version")
	if err != nil {
		fmt.Println("skipped: agent-browser does not run:", err)
		return
	}
	defer ab.Run("close")
	// Warm-up: both open the page and get the same viewport. browse
	// reuses the daemon of the bench above.
	br := &peer.Tool{Name: "browse", Bin: b.bin, Dir: b.dir}
	for _, step := range []struct {
		t    *peer.Tool
		args []string
	}{
		{ab, []string{"open", pageURL}},
		{ab, []string{"set", "viewport", "1280", "720"}},
		{br, []string{"goto", pageURL}},
		{br, []string{"viewport", "1280x720"}},
	} {
		if _, _, err := step.t.Run(step.args...); err != nil {
			if step.t == ab {
				fmt.Println("skipped: agent-browser cannot start:", err)
			} else {
				fmt.Println("skipped:", err)
			}
			return
		}
	}

	// Below, who is 0 for browse and 1 for agent-browser.
	tools := [2]*peer.Tool{br, ab}
	shots := make([][2]capture, len(visuals))
	path := func(i, who int) string {
		return filepath.Join(dir, fmt.Sprintf("%d-%s%s", i, tools[who].Name, visuals[i].ext))
	}
	one := func(i, who int) {
		args := visuals[i].browse
		if who == 1 {
			args = visuals[i].agent
		}
		shots[i][who].shoot(tools[who], args, path(i, who))
	}
	// One untimed run of each, whose file shows what was captured.
	for i := range visuals {
		for who := range 2 {
			one(i, who)
			if c := &shots[i][who]; c.err == nil {
				c.times = nil
				c.shape = shape(path(i, who))
			}
		}
	}
	// The timed runs. Who goes first alternates, so neither tool always
	// follows the other's work on the shared CPU.
	for run := range runs {
		for i := range visuals {
			first := run % 2
			one(i, first)
			one(i, 1-first)
		}
	}

	times := [][]string{{"what", "browse p50", "agent-browser p50", "ratio (browse/agent-browser)", "browse bytes", "agent-browser bytes"}}
	shapes := [][]string{{"what was captured", "browse", "agent-browser"}}
	var failures []string
	for i, v := range visuals {
		bc, ac := shots[i][0], shots[i][1]
		ratio := "–"
		if bc.err == nil && ac.err == nil {
			ratio = fmt.Sprintf("%.2f×", float64(median(bc.times))/float64(median(ac.times)))
		}
		times = append(times, []string{v.what, bc.p50(), ac.p50(), ratio, bc.size(), ac.size()})
		shapes = append(shapes, []string{v.what, bc.shape, ac.shape})
		for _, c := range shots[i] {
			if c.err != nil {
				failures = append(failures, fmt.Sprintf("%s failed: %v", v.what, c.err))
			}
		}
	}
	peer.PrintTable(times)
	fmt.Println()
	peer.PrintTable(shapes)
	fmt.Println()
	fmt.Println("peer:", peer.FirstLine(version))
	for _, f := range failures {
		fmt.Println(f)
	}
}

func (c capture) p50() string {
	if c.err != nil {
		return "failed"
	}
	return peer.MS(median(c.times))
}

func (c capture) size() string {
	if c.err != nil {
		return "–"
	}
	return fmt.Sprintf("%d", c.bytes)
}

// median sorts ds in place.
func median(ds []time.Duration) time.Duration {
	return peer.Percentile(ds, 0.50)
}

// shape is a PNG's width and height, read from its header, or a PDF's page
// count (Chromium writes each page as an uncompressed /Type /Page object).
func shape(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "unreadable"
	}
	if bytes.HasPrefix(data, []byte("%PDF-")) {
		return fmt.Sprintf("%d pages", len(pdfPage.FindAll(data, -1)))
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "not a PNG or PDF"
	}
	return fmt.Sprintf("%dx%d px", cfg.Width, cfg.Height)
}

var pdfPage = regexp.MustCompile(`/Type\s*/Page\b`)
