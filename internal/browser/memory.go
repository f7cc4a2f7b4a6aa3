package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Memory is a snapshot of where memory goes: the daemon itself, each tab's
// page, the Chromium processes, and the bounded buffers. It is the JSON of
// 'memory --json' and GET /memory.
type Memory struct {
	Daemon DaemonMemory `json:"daemon"`
	// Tabs are sorted by JS heap in use, largest first.
	Tabs []TabMemory `json:"tabs"`
	// Processes are the browser process and its descendants, largest first.
	Processes        []ProcessMemory `json:"processes"`
	ChromiumRSSBytes int64           `json:"chromiumRssBytes"`
	Buffers          []BufferStat    `json:"buffers"`
	Notes            []string        `json:"notes,omitempty"`
}

// DaemonMemory is the daemon process: its resident size and Go heap.
type DaemonMemory struct {
	PID            int    `json:"pid"`
	RSSBytes       int64  `json:"rssBytes"`
	HeapAllocBytes uint64 `json:"heapAllocBytes"` // live and not yet collected heap objects
	HeapSysBytes   uint64 `json:"heapSysBytes"`   // heap memory obtained from the OS
	SysBytes       uint64 `json:"sysBytes"`       // all memory obtained from the OS
	NumGC          uint32 `json:"numGC"`
	Goroutines     int    `json:"goroutines"`
}

// TabMemory is one tab's page, from Performance.getMetrics.
type TabMemory struct {
	ID               int    `json:"tabId"`
	URL              string `json:"url"`
	Title            string `json:"title"`
	JSHeapUsedBytes  int64  `json:"jsHeapUsedBytes"`
	JSHeapTotalBytes int64  `json:"jsHeapTotalBytes"`
	DOMNodes         int64  `json:"domNodes"`
	Error            string `json:"error,omitempty"` // why the numbers are missing
}

// ProcessMemory is one Chromium process.
type ProcessMemory struct {
	PID      int    `json:"pid"`
	PPID     int    `json:"ppid"`
	Type     string `json:"type"` // browser, renderer, gpu-process, utility (network), zygote…
	RSSBytes int64  `json:"rssBytes"`
}

// BufferStat is how full one bounded buffer is.
type BufferStat struct {
	Name     string `json:"name"`
	Len      int    `json:"len"`
	Capacity int    `json:"capacity"`
}

// perfLocks serialise, per tab, the Performance domain's enable/disable
// pairs: two snapshots at once must not switch it off under each other.
var perfLocks = struct {
	sync.Mutex
	byTab map[*Tab]*sync.Mutex
}{byTab: map[*Tab]*sync.Mutex{}}

// perfLock returns tab t's lock, forgetting those of tabs no longer open.
func perfLock(t *Tab, open []*Tab) *sync.Mutex {
	perfLocks.Lock()
	defer perfLocks.Unlock()
	for tab := range perfLocks.byTab {
		if !slices.Contains(open, tab) {
			delete(perfLocks.byTab, tab)
		}
	}
	mu := perfLocks.byTab[t]
	if mu == nil {
		mu = &sync.Mutex{}
		perfLocks.byTab[t] = mu
	}
	return mu
}

// Memory takes a memory snapshot. Tabs that do not answer within a couple of
// seconds are listed with the reason instead of failing the whole snapshot.
func (b *Browser) Memory(ctx context.Context) *Memory {
	m := &Memory{Daemon: daemonMemory()}
	b.RefreshInfo(ctx) // current titles; stale ones are still worth listing

	tabs := b.Tabs()
	m.Tabs = make([]TabMemory, len(tabs))
	var wg sync.WaitGroup
	for i, t := range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
			m.Tabs[i] = t.memory(tctx, perfLock(t, tabs))
		}()
	}
	wg.Wait()
	sort.SliceStable(m.Tabs, func(i, j int) bool { return m.Tabs[i].JSHeapUsedBytes > m.Tabs[j].JSHeapUsedBytes })

	if pid := b.PID(); pid > 0 {
		m.Processes = processTree(pid)
		for _, p := range m.Processes {
			m.ChromiumRSSBytes += p.RSSBytes
		}
	} else {
		m.Processes = []ProcessMemory{}
		m.Notes = append(m.Notes, "The browser was attached (BROWSE_CDP_URL), not launched: its processes are not this daemon's to measure.")
	}

	m.Buffers = []BufferStat{
		{Name: "console", Len: b.Console.Len(), Capacity: b.Console.Cap()},
		{Name: "network", Len: b.Network.Len(), Capacity: b.Network.Cap()},
		{Name: "dialog", Len: b.Dialogs.Len(), Capacity: b.Dialogs.Cap()},
	}
	return m
}

func (t *Tab) memory(ctx context.Context, perfMu *sync.Mutex) TabMemory {
	tm := TabMemory{ID: t.ID, URL: t.URL(), Title: t.Title()}
	var res struct {
		Metrics []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"metrics"`
	}
	err := func() error {
		perfMu.Lock()
		defer perfMu.Unlock()
		if err := t.Session.Call(ctx, "Performance.enable", nil, nil); err != nil {
			return err
		}
		defer Afterward(func(ctx context.Context) { t.Session.Call(ctx, "Performance.disable", nil, nil) })
		return t.Session.Call(ctx, "Performance.getMetrics", nil, &res)
	}()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			tm.Error = "the page did not answer in time (busy, or paused by a dialog)"
		} else {
			tm.Error = err.Error()
		}
		return tm
	}
	for _, mt := range res.Metrics {
		switch mt.Name {
		case "JSHeapUsedSize":
			tm.JSHeapUsedBytes = int64(mt.Value)
		case "JSHeapTotalSize":
			tm.JSHeapTotalBytes = int64(mt.Value)
		case "Nodes":
			tm.DOMNodes = int64(mt.Value)
		}
	}
	return tm
}

func daemonMemory() DaemonMemory {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	d := DaemonMemory{
		PID:            os.Getpid(),
		HeapAllocBytes: ms.HeapAlloc,
		HeapSysBytes:   ms.HeapSys,
		SysBytes:       ms.Sys,
		NumGC:          ms.NumGC,
		Goroutines:     runtime.NumGoroutine(),
	}
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		d.RSSBytes = ParseVmRSS(status)
	}
	return d
}

// processTree lists root and every process descended from it, walking
// /proc/*/stat for parent pids, largest resident size first.
func processTree(root int) []ProcessMemory {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		if ppid, err := ParseStatPPID(stat); err == nil {
			parent[pid] = ppid
		}
	}
	children := map[int][]int{}
	for pid, ppid := range parent {
		children[ppid] = append(children[ppid], pid)
	}
	out := []ProcessMemory{}
	if _, ok := parent[root]; !ok {
		return out // the browser is gone
	}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = append(queue[1:], children[pid]...)
		dir := "/proc/" + strconv.Itoa(pid)
		p := ProcessMemory{PID: pid, PPID: parent[pid], Type: "browser"}
		if status, err := os.ReadFile(dir + "/status"); err == nil {
			p.RSSBytes = ParseVmRSS(status)
		}
		if cmdline, err := os.ReadFile(dir + "/cmdline"); err == nil && pid != root {
			p.Type = ProcessType(cmdline)
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].RSSBytes > out[j].RSSBytes })
	return out
}

// ParseStatPPID reads the parent pid from the text of /proc/PID/stat:
// "pid (comm) state ppid …". The command name may itself hold spaces and
// parentheses, so the fields are counted from its last ')'.
func ParseStatPPID(stat []byte) (int, error) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, fmt.Errorf("no command name in %q", stat)
	}
	fields := strings.Fields(string(stat[end+1:]))
	if len(fields) < 2 {
		return 0, fmt.Errorf("too few fields in %q", stat)
	}
	return strconv.Atoi(fields[1])
}

// ParseVmRSS reads the resident set size, in bytes, from the text of
// /proc/PID/status (its "VmRSS:   1234 kB" line); 0 when there is none, as
// for a zombie.
func ParseVmRSS(status []byte) int64 {
	for line := range strings.Lines(string(status)) {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// ProcessType names a Chromium process from its command line (from
// /proc/PID/cmdline): the value of --type= ("renderer", "gpu-process",
// "zygote"…), with the utility service's short name when there is one
// ("utility (network)"). A command line without --type= is the browser
// process. Chromium rewrites its children's command lines with spaces
// between the arguments instead of NULs, so both separate them.
func ProcessType(cmdline []byte) string {
	typ, sub := "", ""
	for arg := range bytes.FieldsFuncSeq(cmdline, func(r rune) bool { return r == 0 || r == ' ' }) {
		if v, ok := bytes.CutPrefix(arg, []byte("--type=")); ok {
			typ = string(v)
		}
		if v, ok := bytes.CutPrefix(arg, []byte("--utility-sub-type=")); ok {
			// "network.mojom.NetworkService" → "network"
			name, _, _ := strings.Cut(string(v), ".")
			sub = name
		}
	}
	switch {
	case typ == "":
		return "browser"
	case sub != "":
		return typ + " (" + sub + ")"
	}
	return typ
}
