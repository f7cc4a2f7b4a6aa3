package main

// Composition: one `chain` of ten steps against the same ten steps as
// separate CLI calls, and one POST /batch of 20 `text` commands on 20 tabs
// against 20 sequential POST /command calls. Both sides run in the same
// bench, alternating, so a noisy machine slows both alike.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/bench/peer"
	"github.com/browsehq/browse/internal/state"
)

// chainSteps are ten ordinary reads and actions on the bench page.
func chainSteps(pageURL string) [][]string {
	return [][]string{
		{"goto", pageURL}, {"url"}, {"text"}, {"js", "document.title"}, {"links"},
		{"snapshot", "-i"}, {"scroll"}, {"js", "scrollY"}, {"forms"}, {"url"},
	}
}

func compareComposition(b *bencher, pageURL string, runs int) {
	fmt.Printf("\nComposition (same run, alternating; %d runs each)\n\n", runs)
	steps := chainSteps(pageURL)
	script, _ := json.Marshal(steps)
	var chained, separate []time.Duration
	for range runs {
		start := time.Now()
		cmd := exec.Command(b.bin, "chain")
		cmd.Dir = b.dir
		cmd.Stdin = bytes.NewReader(script)
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Printf("skipped: chain failed: %v\n%s\n", err, out)
			return
		}
		chained = append(chained, time.Since(start))
		start = time.Now()
		for _, s := range steps {
			b.run(s...)
		}
		separate = append(separate, time.Since(start))
	}

	st, err := state.Read(filepath.Join(b.dir, ".gstack", "browse.json"))
	if err != nil {
		fmt.Println("skipped: no daemon state:", err)
		return
	}
	base := "http://127.0.0.1:" + strconv.Itoa(st.Port)
	post := func(path, body string) error {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+st.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s answered %d", path, resp.StatusCode)
		}
		return nil
	}
	// Twenty tabs on the bench page.
	var tabs []int
	for range 20 {
		out := b.run("newtab", pageURL, "--json")
		var t struct{ TabID int }
		if json.Unmarshal([]byte(out), &t) != nil || t.TabID == 0 {
			fmt.Println("skipped: newtab --json printed", strings.TrimSpace(out))
			return
		}
		tabs = append(tabs, t.TabID)
	}
	defer func() {
		for _, id := range tabs {
			b.run("closetab", strconv.Itoa(id))
		}
	}()
	items := make([]string, len(tabs))
	for i, id := range tabs {
		items[i] = fmt.Sprintf(`{"command":"text","tabId":%d}`, id)
	}
	batch := `{"commands":[` + strings.Join(items, ",") + `]}`
	var batched, sequential []time.Duration
	for range runs {
		start := time.Now()
		if err := post("/batch", batch); err != nil {
			fmt.Println("skipped:", err)
			return
		}
		batched = append(batched, time.Since(start))
		start = time.Now()
		for _, it := range items {
			if err := post("/command", it); err != nil {
				fmt.Println("skipped:", err)
				return
			}
		}
		sequential = append(sequential, time.Since(start))
	}
	rows := [][]string{{"what", "one call p50", "separate calls p50", "ratio"}}
	ratio := func(a, b []time.Duration) string {
		return fmt.Sprintf("%.2f×", float64(peer.Percentile(a, 0.5))/float64(peer.Percentile(b, 0.5)))
	}
	rows = append(rows, []string{"chain of 10 steps vs 10 CLI calls", peer.MS(peer.Percentile(chained, 0.5)), peer.MS(peer.Percentile(separate, 0.5)), ratio(chained, separate)})
	rows = append(rows, []string{"POST /batch of 20 text on 20 tabs vs 20 POST /command", peer.MS(peer.Percentile(batched, 0.5)), peer.MS(peer.Percentile(sequential, 0.5)), ratio(batched, sequential)})
	peer.PrintTable(rows)
}
