package main

// The cost of the security layer, measured in one run with both sides
// alternating: warm `text` (a fresh CLI process each) through the
// untrusted-content envelope against a daemon started with
// BROWSE_UNTRUSTED_ENVELOPE=0, and POST /command on the tunnel listener
// (a paired agent's scoped token, its own tab) against the local listener
// (the root token). url and html cost the same work on both sides; a
// paired agent's text also leaves out every deceptively hidden element,
// which reads every element's style.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/browsehq/browse/bench/peer"
	"github.com/browsehq/browse/internal/state"
)

func compareSecurity(bin string, pages map[string]string, runs int) {
	fmt.Printf("\nSecurity layer (same run, alternating; %d runs each)\n\n", runs)
	guarded, err := newWorkspace(bin, "BROWSE_TUNNEL_LOCAL_ONLY=1")
	if err != nil {
		fmt.Println("skipped:", err)
		return
	}
	defer guarded.close()
	raw, err := newWorkspace(bin, "BROWSE_UNTRUSTED_ENVELOPE=0")
	if err != nil {
		fmt.Println("skipped:", err)
		return
	}
	defer raw.close()

	rows := [][]string{{"what", "guarded p50", "baseline p50", "added"}}
	for _, name := range []string{"bench page", "2,000-element page"} {
		u := pages[name]
		guarded.run("goto", u)
		raw.run("goto", u)
		if out := guarded.run("text"); !strings.Contains(out, "UNTRUSTED EXTERNAL CONTENT") {
			fmt.Println("skipped: text is not enveloped:", out)
			return
		}
		var a, b []time.Duration
		for range runs {
			d, _ := guarded.timed("text")
			a = append(a, d)
			d, _ = raw.timed("text")
			b = append(b, d)
		}
		rows = append(rows, added("warm text, "+name+": envelope vs none", a, b))
	}

	// A paired agent on the tunnel listener against the local user on the
	// local one, each on a tab of its own with the bench page.
	st, err := state.Read(filepath.Join(guarded.dir, ".gstack", "browse.json"))
	if err != nil || st.TunnelPort == 0 {
		fmt.Println("skipped: no tunnel listener:", err)
		peer.PrintTable(rows)
		return
	}
	local := "http://127.0.0.1:" + strconv.Itoa(st.Port)
	tunnel := "http://127.0.0.1:" + strconv.Itoa(st.TunnelPort)
	token, err := pairAgent(local, tunnel, st.Token)
	if err != nil {
		fmt.Println("skipped:", err)
		peer.PrintTable(rows)
		return
	}
	agentTab, err := postJSON(tunnel+"/command", token, `{"command":"newtab","args":[`+strconv.Quote(pages["bench page"])+`]}`)
	var opened struct{ TabID int }
	if err != nil || json.Unmarshal([]byte(agentTab), &opened) != nil || opened.TabID == 0 {
		fmt.Println("skipped: newtab over the tunnel:", err, agentTab)
		peer.PrintTable(rows)
		return
	}
	guarded.run("goto", pages["bench page"])
	userTab := 1
	for _, cmd := range []string{"url", "html", "text"} {
		var a, b []time.Duration
		for range runs {
			start := time.Now()
			if _, err := postJSON(tunnel+"/command", token, fmt.Sprintf(`{"command":%q,"tabId":%d}`, cmd, opened.TabID)); err != nil {
				fmt.Println("skipped:", err)
				return
			}
			a = append(a, time.Since(start))
			start = time.Now()
			if _, err := postJSON(local+"/command", st.Token, fmt.Sprintf(`{"command":%q,"tabId":%d}`, cmd, userTab)); err != nil {
				fmt.Println("skipped:", err)
				return
			}
			b = append(b, time.Since(start))
		}
		rows = append(rows, added("POST /command "+cmd+": tunnel listener vs local", a, b))
	}
	peer.PrintTable(rows)
}

// added is a row: both p50s and their difference.
func added(name string, a, b []time.Duration) []string {
	pa, pb := peer.Percentile(a, 0.5), peer.Percentile(b, 0.5)
	return []string{name, peer.MS(pa), peer.MS(pb), fmt.Sprintf("%+.2f ms (%.2f×)", float64((pa-pb).Microseconds())/1000, float64(pa)/float64(pb))}
}

// pairAgent makes a setup key with the root token and exchanges it on the
// tunnel listener; the rate limit is raised so the bench is not throttled.
func pairAgent(local, tunnel, root string) (string, error) {
	out, err := postJSON(local+"/pair", root, `{"clientId":"bench","rateLimit":100000}`)
	if err != nil {
		return "", err
	}
	var key struct {
		SetupKey string `json:"setup_key"`
	}
	json.Unmarshal([]byte(out), &key)
	out, err = postJSON(tunnel+"/connect", "", `{"setup_key":"`+key.SetupKey+`"}`)
	if err != nil {
		return "", err
	}
	var s struct{ Token string }
	json.Unmarshal([]byte(out), &s)
	return s.Token, nil
}

func postJSON(u, token, body string) (string, error) {
	req, _ := http.NewRequest("POST", u, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return "", fmt.Errorf("%s answered %d: %s", u, resp.StatusCode, data)
	}
	return string(data), nil
}

// benchWorkspace is a bencher with a workspace and environment of its own.
type benchWorkspace struct{ bencher }

func newWorkspace(bin string, env ...string) (*benchWorkspace, error) {
	dir, err := os.MkdirTemp("", "browse-bench-sec")
	if err != nil {
		return nil, err
	}
	// HOME is the workspace too, so the denial log goes away with it.
	env = append(append(os.Environ(), env...), "HOME="+dir)
	return &benchWorkspace{bencher{bin: bin, dir: dir, env: env}}, nil
}

func (w *benchWorkspace) close() {
	w.run("stop")
	os.RemoveAll(w.dir)
}
