// Command peerbench times browse against agent-browser, its fastest peer,
// on the same scenario: a cold first command, the warm everyday commands on
// two synthetic pages, a bare process as the floor, and `snapshot -i` over a
// corpus of large real pages (Debian's Python documentation). Both tools run
// in the same process, one run of each in turn, with the order flipped every
// run, so machine noise lands on both alike. `make bench-peers` runs it.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/browsehq/browse/bench/peer"
)

// Who indexes the two tools everywhere below.
const (
	browse = 0
	agent  = 1
)

func main() {
	bin := flag.String("bin", "bin/browse", "the browse binary")
	agentBin := flag.String("agent-browser", "", "agent-browser's native binary (scripts/install-agent-browser.sh prints it)")
	corpus := flag.String("corpus", "", "directory of HTML pages for the corpus rows (scripts/install-corpus.sh prints one)")
	runs := flag.Int("n", 15, "timed runs per warm command and tool")
	colds := flag.Int("cold", 3, "cold starts per tool")
	corpusPages := flag.Int("corpus-pages", 32, "how many of the corpus's largest pages to snapshot")
	corpusRuns := flag.Int("corpus-n", 1, "timed snapshot -i runs per corpus page and tool")
	flag.Parse()

	started := time.Now()
	work, err := os.MkdirTemp("", "browse-peerbench")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(work)

	mux := http.NewServeMux()
	for _, p := range benchPages {
		mux.HandleFunc(p.path, p.handler)
	}
	if *corpus != "" {
		mux.Handle("/corpus/", http.StripPrefix("/corpus/", http.FileServer(http.Dir(*corpus))))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := newBench(work)
	defer b.close()
	if err := b.setBrowse(*bin); err != nil {
		fatal(err)
	}
	b.setAgent(*agentBin)

	fmt.Printf("browse vs agent-browser (fresh CLI process per command; interleaved; %d warm runs, %d cold starts)\n\n", *runs, *colds)
	b.cold(srv.URL+benchPages[0].path, max(*colds, 1))
	b.floor(max(*runs, 1))
	var firstURL [2]side // warm url on the first page, set against the floor
	for i, p := range benchPages {
		url := b.warm(p, srv.URL+p.path, max(*runs, 1), i == 0)
		if i == 0 {
			firstURL = url
		}
	}
	b.floorRatios(b.helloBesideURL, firstURL, benchPages[0].what)
	if *corpus == "" {
		b.skipRow("corpus", "no corpus directory given (-corpus; scripts/install-corpus.sh installs python3-doc)")
	} else {
		b.corpus(*corpus, srv.URL+"/corpus/", max(*corpusPages, 1), max(*corpusRuns, 1))
	}

	b.rss()
	peer.PrintTable(b.rows)
	fmt.Println()
	fmt.Println("Cells are p50 (p90) of the wall time of one CLI process; ratio is browse ÷ agent-browser")
	fmt.Println("of the p50s (below 1: browse is faster or smaller). Output sizes are stdout bytes.")
	for _, n := range b.notes {
		fmt.Println(n)
	}
	for _, s := range b.skipped {
		fmt.Println("skipped:", s)
	}
	fmt.Printf("\nbrowse: %s\nagent-browser: %s\ntotal bench time: %s\n", b.versions[browse], b.versions[agent], time.Since(started).Round(time.Second))
}

// bench holds the two tools, the rows of the table and what went wrong.
type bench struct {
	work     string
	tools    [2]*peer.Tool
	versions [2]string
	down     [2]error // set when a tool cannot run at all
	rows     [][]string
	notes    []string
	skipped  []string

	agentDownNoted bool // the one line saying agent-browser did not run

	hello *peer.Tool // the Go hello-world, once built
	// helloBesideURL is the hello-world timed right before and right after
	// each round of warm url runs on the first page: the floor ratio
	// compares runs taken under the same load, not minutes apart.
	helloBesideURL side
}

func newBench(work string) *bench {
	b := &bench{work: work}
	b.rows = [][]string{{"figure", "browse", "agent-browser", "ratio"}}
	return b
}

func (b *bench) setBrowse(bin string) error {
	copied, err := copyBinaries(bin, filepath.Join(b.work, "bin"))
	if err != nil {
		return err
	}
	ws := filepath.Join(b.work, "browse")
	if err := os.Mkdir(ws, 0o700); err != nil {
		return err
	}
	b.tools[browse] = &peer.Tool{Name: "browse", Bin: copied, Dir: ws}
	_, v, err := b.tools[browse].Run("--version")
	if err != nil {
		return err
	}
	b.versions[browse] = peer.FirstLine(v)
	return nil
}

// copyBinaries copies bin, and the browse-* files beside it that it runs
// (browse-core), into dir and returns the copy of bin. The bench then times
// one build throughout: a `make build` elsewhere during the bench would
// otherwise make browse restart its daemon halfway, on a new version.
func copyBinaries(bin, dir string) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	siblings, err := filepath.Glob(filepath.Join(filepath.Dir(bin), "browse-*"))
	if err != nil {
		return "", err
	}
	for _, src := range append(siblings, bin) {
		data, err := os.ReadFile(src)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), data, 0o700); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, filepath.Base(bin)), nil
}

// setAgent readies agent-browser; when it cannot run, every one of its
// cells says so and the bench goes on with browse alone.
func (b *bench) setAgent(bin string) {
	b.versions[agent] = "not run"
	if bin == "" {
		b.down[agent] = fmt.Errorf("no binary given (-agent-browser; scripts/install-agent-browser.sh installs one)")
		return
	}
	dir := filepath.Join(b.work, "agent-browser")
	if err := os.Mkdir(dir, 0o700); err != nil {
		b.down[agent] = err
		return
	}
	t, err := peer.AgentBrowser(bin, dir, "peerbench")
	if err != nil {
		b.down[agent] = err
		return
	}
	_, v, err := t.Run("--version")
	if err != nil {
		b.down[agent] = err
		return
	}
	b.tools[agent], b.versions[agent] = t, peer.FirstLine(v)
}

// close shuts both daemons down, with their browsers.
func (b *bench) close() {
	if t := b.tools[browse]; t != nil {
		t.Run("stop")
	}
	if t := b.tools[agent]; t != nil && b.down[agent] == nil {
		t.Run("close")
	}
}

// side is one tool's share of one figure.
type side struct {
	times []time.Duration
	bytes int   // stdout size of the last successful run
	err   error // the first failure; the tool is not run again for it
}

// time runs one command for the side unless it already failed.
func (s *side) time(t *peer.Tool, args ...string) string {
	if s.err != nil {
		return ""
	}
	d, out, err := t.Run(args...)
	if err != nil {
		s.err = err
		return ""
	}
	s.times = append(s.times, d)
	s.bytes = len(out)
	return out
}

// usable reports whether who can be run at all, and otherwise marks s.
func (b *bench) usable(who int, s *side) bool {
	if b.down[who] != nil {
		s.err = b.down[who]
	}
	return s.err == nil
}

// cold times each tool's first command from nothing: a fresh workspace or
// session, so the daemon and Chromium both start, then the first goto.
func (b *bench) cold(url string, runs int) {
	var s [2]side
	for run := range runs {
		for _, who := range order(run) {
			if !b.usable(who, &s[who]) {
				continue
			}
			t, stop := b.freshSession(who, fmt.Sprintf("cold%d", run))
			if t == nil {
				s[who].err = fmt.Errorf("cannot make a fresh workspace")
				continue
			}
			if who == browse {
				s[who].time(t, "goto", url)
			} else {
				s[who].time(t, "open", url)
			}
			t.Run(stop)
			// Let the stopped Chromium finish exiting before the other tool's
			// clock starts.
			time.Sleep(500 * time.Millisecond)
		}
	}
	b.timeRow("cold first command: daemon + Chromium start + goto", s)
}

// freshSession is who's tool in a workspace (browse) or session
// (agent-browser) never used before, and the command that ends it.
func (b *bench) freshSession(who int, name string) (*peer.Tool, string) {
	if who == agent {
		return b.tools[agent].With("AGENT_BROWSER_SESSION=" + name), "close"
	}
	ws := filepath.Join(b.work, "browse-"+name)
	if err := os.Mkdir(ws, 0o700); err != nil {
		return nil, ""
	}
	t := *b.tools[browse]
	t.Dir = ws
	return &t, "stop"
}

// order is who goes first in a run: it alternates, so neither tool always
// follows the other's work on the shared CPU.
func order(run int) [2]int {
	if run%2 == 0 {
		return [2]int{browse, agent}
	}
	return [2]int{agent, browse}
}

// floor times a Go hello-world, the least a fresh process can cost here,
// and each CLI's --version, its own floor without a daemon.
func (b *bench) floor(runs int) {
	var hello side
	dir := filepath.Join(b.work, "hello")
	bin, err := buildHello(dir)
	if err != nil {
		hello.err = err
		b.helloBesideURL.err = err
	} else {
		t := &peer.Tool{Name: "hello", Bin: bin, Dir: dir}
		b.hello = t
		hello.time(t) // untimed: page the binary in
		hello.times = nil
		for range runs {
			hello.time(t)
		}
	}
	row := []string{"floor: Go hello-world process", cell(hello), "(same)", ""}
	if hello.err != nil {
		b.skipped = append(b.skipped, "floor: "+hello.err.Error())
	}
	b.rows = append(b.rows, row)

	var version [2]side
	for run := range runs + 1 {
		for _, who := range order(run) {
			if b.usable(who, &version[who]) {
				version[who].time(b.tools[who], "--version")
			}
		}
	}
	for who := range version {
		if len(version[who].times) > 0 {
			version[who].times = version[who].times[1:] // the untimed first run
		}
	}
	b.timeRow("CLI floor: --version (no daemon)", version)
}

func buildHello(dir string) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o600); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "hello")
	t := &peer.Tool{Name: "go build", Bin: "go", Dir: dir, Env: []string{"GO111MODULE=off", "CGO_ENABLED=0"}}
	if _, _, err := t.Run("build", "-o", bin, src); err != nil {
		return "", err
	}
	return bin, nil
}

// step is one warm command as each tool spells it. A step that acts on an
// element names it in target; args then gets the ref the tool's own latest
// `snapshot -i` gave that element.
type step struct {
	what   string
	bytes  bool // also report the output size
	target *target
	args   func(who int, ref string) []string
}

// same is a step both tools spell the same way.
func same(args ...string) func(int, string) []string {
	return func(int, string) []string { return args }
}

func each(browseArgs, agentArgs []string) func(int, string) []string {
	return func(who int, _ string) []string {
		if who == browse {
			return browseArgs
		}
		return agentArgs
	}
}

// warm runs the everyday commands on one page and adds their rows; it
// returns the `url` figure, which the floor ratios use.
//
// Where the two tools differ:
//   - url: agent-browser's is `get url`.
//   - text: browse's `text` is the page's cleaned visible text;
//     agent-browser has no whole-page text command, `get text body` (the
//     body's innerText) is the nearest, so the byte counts differ somewhat.
//   - goto: agent-browser's is `open`. browse returns at DOMContentLoaded;
//     agent-browser waits for the load event. On these pages, with no
//     subresources, the two are a moment apart.
//   - browse wraps page content in UNTRUSTED EXTERNAL CONTENT markers
//     (about 150 bytes); agent-browser prints it bare by default.
func (b *bench) warm(p benchPage, url string, runs int, withFloor bool) [2]side {
	steps := []step{
		{what: "url", args: each([]string{"url"}, []string{"get", "url"})},
		{what: "text", bytes: true, args: each([]string{"text"}, []string{"get", "text", "body"})},
		{what: "snapshot -i", bytes: true, args: same("snapshot", "-i")},
		{what: "snapshot (full)", bytes: true, args: same("snapshot")},
		{what: "click @ref (" + p.button.label + " button)", target: &p.button,
			args: func(_ int, ref string) []string { return []string{"click", ref} }},
		{what: "fill @ref value (" + p.field.label + " box)", target: &p.field,
			args: func(_ int, ref string) []string { return []string{"fill", ref, p.fillValue} }},
		{what: "goto (same page again)", args: each([]string{"goto", url}, []string{"open", url})},
	}
	figures := make([][2]side, len(steps))
	var pageErr [2]error
	var snapshot [2]string // each tool's latest snapshot -i, for refs
	// Both open the page at the same viewport; then one untimed run of the
	// whole sequence warms each tool up.
	for who := range 2 {
		pageErr[who] = b.down[who]
		if pageErr[who] != nil {
			continue
		}
		setup := [][]string{{"goto", url}, {"viewport", "1280x720"}}
		if who == agent {
			setup = [][]string{{"open", url}, {"set", "viewport", "1280", "720"}}
		}
		for _, args := range setup {
			if _, _, err := b.tools[who].Run(args...); err != nil && pageErr[who] == nil {
				pageErr[who] = err
			}
		}
	}
	for run := range runs + 1 {
		for i, s := range steps {
			floor := s.what == "url" && withFloor && b.hello != nil && run > 0
			if floor {
				b.helloBesideURL.time(b.hello)
			}
			for _, who := range order(run) {
				f := &figures[i][who]
				if pageErr[who] != nil {
					f.err = pageErr[who]
					continue
				}
				var ref string
				if s.target != nil {
					if ref = findRef(snapshot[who], *s.target); ref == "" && f.err == nil {
						f.err = fmt.Errorf("no %s %q in its snapshot -i to take a ref from", s.target.role, s.target.label)
					}
				}
				out := f.time(b.tools[who], s.args(who, ref)...)
				if s.what == "snapshot -i" && f.err == nil {
					snapshot[who] = out
				}
			}
			if floor {
				// Once before and once after both tools' runs: whatever the
				// previous step left running weighs on the floor as on them.
				b.helloBesideURL.time(b.hello)
			}
		}
	}
	for i, s := range steps {
		for who := range figures[i] {
			if len(figures[i][who].times) > 0 {
				figures[i][who].times = figures[i][who].times[1:] // the warm-up run
			}
		}
		name := fmt.Sprintf("warm %s, %s", s.what, p.what)
		b.timeRow(name, figures[i])
		if s.bytes {
			b.bytesRow(name+": output bytes", figures[i])
		}
	}
	return figures[0]
}

// refPattern matches a ref as either tool prints it: browse's `@e7 [button]
// "Sign in"` and agent-browser's `- button "Sign in" [ref=e7]`.
var refPattern = regexp.MustCompile(`@(e\d+)\b|\bref=(e\d+)\b`)

// findRef returns "@eN" for the first snapshot line naming the target's role
// and quoted label, or "" when none does.
func findRef(snapshot string, t target) string {
	for line := range strings.SplitSeq(snapshot, "\n") {
		if !strings.Contains(line, `"`+t.label+`"`) || !strings.Contains(line, t.role) {
			continue
		}
		if m := refPattern.FindStringSubmatch(line); m != nil {
			return "@" + m[1] + m[2]
		}
	}
	return ""
}

// floorRatios sets each tool's warm `url`, its cheapest daemon round trip,
// against the bare process.
func (b *bench) floorRatios(floor side, url [2]side, page string) {
	name := "warm url ÷ Go hello-world (" + page + ")"
	if floor.err != nil || len(floor.times) == 0 {
		b.skipRow(name, "no floor")
		return
	}
	f := float64(peer.Percentile(floor.times, 0.5))
	var cells [2]string
	for who, s := range url {
		cells[who] = "skipped"
		if s.err == nil && len(s.times) > 0 {
			cells[who] = fmt.Sprintf("%.1f×", float64(peer.Percentile(s.times, 0.5))/f)
		}
	}
	b.rows = append(b.rows, []string{name, cells[browse], cells[agent], ratio(url, false)})
}

func (b *bench) skipRow(name, why string) {
	b.rows = append(b.rows, []string{name, "skipped", "skipped", "–"})
	b.skipped = append(b.skipped, name+": "+why)
}

// timeRow adds a figure's p50 (p90) for both tools and notes failures.
func (b *bench) timeRow(name string, s [2]side) {
	b.rows = append(b.rows, []string{name, cell(s[browse]), cell(s[agent]), ratio(s, false)})
	b.noteFailures(name, s)
}

func (b *bench) bytesRow(name string, s [2]side) {
	var cells [2]string
	for who := range s {
		cells[who] = "skipped"
		if s[who].err == nil && len(s[who].times) > 0 {
			cells[who] = fmt.Sprint(s[who].bytes)
		}
	}
	b.rows = append(b.rows, []string{name, cells[browse], cells[agent], ratio(s, true)})
}

func (b *bench) noteFailures(name string, s [2]side) {
	for who := range s {
		if err := s[who].err; err != nil && b.down[who] == nil {
			b.skipped = append(b.skipped, fmt.Sprintf("%s (%s): %v", name, []string{"browse", "agent-browser"}[who], err))
		}
	}
	if b.down[agent] != nil && !b.agentDownNoted {
		b.agentDownNoted = true
		b.skipped = append(b.skipped, "agent-browser (every row): "+b.down[agent].Error())
	}
}

func cell(s side) string {
	if s.err != nil || len(s.times) == 0 {
		return "skipped"
	}
	return fmt.Sprintf("%s (%s)", peer.MS(peer.Percentile(s.times, 0.5)), peer.MS(peer.Percentile(s.times, 0.9)))
}

// ratio is browse ÷ agent-browser of the p50 times, or of the output sizes.
func ratio(s [2]side, bytes bool) string {
	for _, x := range s {
		if x.err != nil || len(x.times) == 0 {
			return "–"
		}
	}
	if bytes {
		if s[agent].bytes == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f×", float64(s[browse].bytes)/float64(s[agent].bytes))
	}
	return fmt.Sprintf("%.2f×", float64(peer.Percentile(s[browse].times, 0.5))/float64(peer.Percentile(s[agent].times, 0.5)))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "peerbench:", err)
	os.Exit(1)
}
