package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// rss reports each daemon's resident memory once the benchmark is over
// (the daemon process alone: Chromium's processes are not counted).
func (b *bench) rss() {
	var cells [2]string
	var kb [2]int
	for who := range 2 {
		cells[who] = "not found"
		if b.tools[who] == nil {
			continue
		}
		var pid int
		if who == browse {
			pid = browsePID(b.tools[browse].Dir)
		} else {
			pid = largestProcess(b.tools[agent].Bin)
		}
		if pid == 0 {
			continue
		}
		if kb[who] = rssKB(pid); kb[who] > 0 {
			cells[who] = fmt.Sprintf("%.1f MB", float64(kb[who])/1024)
		}
	}
	ratio := "–"
	if kb[browse] > 0 && kb[agent] > 0 {
		ratio = fmt.Sprintf("%.2f×", float64(kb[browse])/float64(kb[agent]))
	}
	b.rows = append(b.rows, []string{"daemon RSS after the benchmark (without Chromium)", cells[browse], cells[agent], ratio})
}

// browsePID reads the daemon's pid from the workspace's state file.
func browsePID(ws string) int {
	data, err := os.ReadFile(filepath.Join(ws, ".gstack", "browse.json"))
	if err != nil {
		return 0
	}
	var st struct {
		PID int `json:"pid"`
	}
	if json.Unmarshal(data, &st) != nil {
		return 0
	}
	return st.PID
}

// largestProcess is the running process of this executable with the most
// resident memory: agent-browser's daemon, not a passing CLI call.
func largestProcess(bin string) int {
	want, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return 0
	}
	entries, _ := os.ReadDir("/proc")
	best, bestKB := 0, 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err != nil || exe != want {
			continue
		}
		if kb := rssKB(pid); kb > bestKB {
			best, bestKB = pid, kb
		}
	}
	return best
}

func rssKB(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}
