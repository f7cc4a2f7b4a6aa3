package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"

	"github.com/browsehq/browse/internal/cdp"
)

// LogEntry is one console message or dialog.
type LogEntry struct {
	Time  time.Time
	TabID int
	Level string // console: log, info, warning, error, debug; dialog: alert, confirm, prompt, beforeunload
	Text  string
}

// String renders the entry as one line for the console and dialog commands.
func (e LogEntry) String() string {
	return fmt.Sprintf("%s [tab %d] [%s] %s", e.Time.Format("15:04:05.000"), e.TabID, e.Level, e.Text)
}

// NetRecord is what is known of one network request.
type NetRecord struct {
	Time     time.Time
	TabID    int
	Method   string
	URL      string
	Type     string
	Status   int64
	Size     int64
	Duration time.Duration
	Failed   string
	Done     bool
}

// NetEntry is a request whose record fills in as events arrive; readers
// take a copy through Snapshot.
type NetEntry struct {
	mu sync.Mutex
	NetRecord
}

// Snapshot copies the record under the entry's lock.
func (e *NetEntry) Snapshot() NetRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.NetRecord
}

// String renders the record as one line for the network command.
func (e NetRecord) String() string {
	var outcome string
	switch {
	case e.Failed != "":
		outcome = "failed: " + e.Failed
	case !e.Done && e.Status == 0:
		outcome = "pending"
	default:
		outcome = fmt.Sprintf("%d (%dms, %s)", e.Status, e.Duration.Milliseconds(), HumanBytes(e.Size))
	}
	return fmt.Sprintf("%s [tab %d] %s %s → %s", e.Time.Format("15:04:05.000"), e.TabID, e.Method, e.URL, outcome)
}

// HumanBytes is a byte count for people: 512B, 12.3KB, 4.0MB.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1fMB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1fKB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%dB", n)
}

// onEvent runs on the connection's reader goroutine: it records what it can
// without calling the browser, and hands anything that needs a call to a
// goroutine of its own.
func (b *Browser) onEvent(ev cdp.Event) {
	switch ev.Method {
	case "Target.attachedToTarget":
		if e, ok := decode[target.EventAttachedToTarget](ev.Params); ok {
			go b.onAttached(ev.SessionID, e)
		}
		return
	case "Target.detachedFromTarget":
		if e, ok := decode[target.EventDetachedFromTarget](ev.Params); ok {
			go b.onDetached(string(e.SessionID))
		}
		return
	case "Target.targetInfoChanged":
		if e, ok := decode[target.EventTargetInfoChanged](ev.Params); ok {
			b.mu.Lock()
			t := b.byTarget[e.TargetInfo.TargetID]
			b.mu.Unlock()
			if t != nil {
				t.setInfo(e.TargetInfo.URL, e.TargetInfo.Title)
			}
		}
		return
	}

	ft := b.sessionTab(ev.SessionID)
	if ft == nil {
		return
	}
	tab := ft.tab
	switch ev.Method {
	case "Runtime.consoleAPICalled":
		if e, ok := decode[runtime.EventConsoleAPICalled](ev.Params); ok {
			b.Console.Push(LogEntry{Time: time.Now(), TabID: tab.ID, Level: consoleLevel(string(e.Type)), Text: formatArgs(e.Args)})
		}
	case "Runtime.exceptionThrown":
		if e, ok := decode[runtime.EventExceptionThrown](ev.Params); ok {
			b.Console.Push(LogEntry{Time: time.Now(), TabID: tab.ID, Level: "error", Text: exceptionText(e.ExceptionDetails)})
		}
	case "Runtime.executionContextCreated":
		if e, ok := decode[runtime.EventExecutionContextCreated](ev.Params); ok {
			tab.contextCreated(ft.session, e.Context)
		}
	case "Runtime.executionContextDestroyed":
		if e, ok := decode[runtime.EventExecutionContextDestroyed](ev.Params); ok {
			tab.contextDestroyed(e.ExecutionContextUniqueID)
		}
	case "Runtime.executionContextsCleared":
		tab.contextsCleared(ft.session)
	case "Page.frameNavigated":
		if e, ok := decode[page.EventFrameNavigated](ev.Params); ok {
			tab.frameNavigated(ft.session, e.Frame)
		}
	case "Page.frameDetached":
		// A "swap" moves the frame into its own process (it attaches as an
		// out-of-process iframe); only "remove" means the frame is gone.
		if e, ok := decode[page.EventFrameDetached](ev.Params); ok && e.Reason != page.FrameDetachedReasonSwap {
			tab.frameDetached(e.FrameID)
		}
	case "Page.frameRequestedNavigation", "Page.frameStartedLoading":
		var e struct {
			FrameID string `json:"frameId"`
		}
		if decodeInto(ev.Params, &e) && e.FrameID == string(tab.TargetID) {
			tab.mu.Lock()
			tab.navStarts++
			tab.mu.Unlock()
		}
	case "Page.javascriptDialogOpening":
		if e, ok := decode[page.EventJavascriptDialogOpening](ev.Params); ok {
			b.answerDialog(tab, ft.session, e)
		}
	case "Network.requestWillBeSent":
		if e, ok := decode[network.EventRequestWillBeSent](ev.Params); ok {
			b.requestStarted(tab, ev.SessionID, e)
		}
	case "Network.responseReceived":
		if e, ok := decode[network.EventResponseReceived](ev.Params); ok {
			if n := b.request(ev.SessionID, string(e.RequestID), false); n != nil {
				n.mu.Lock()
				n.Status = e.Response.Status
				n.mu.Unlock()
			}
		}
	case "Network.loadingFinished":
		if e, ok := decode[network.EventLoadingFinished](ev.Params); ok {
			if n := b.request(ev.SessionID, string(e.RequestID), true); n != nil {
				n.mu.Lock()
				n.Done, n.Size, n.Duration = true, int64(e.EncodedDataLength), time.Since(n.Time)
				n.mu.Unlock()
				tab.requestEnded()
			}
		}
	case "Network.loadingFailed":
		if e, ok := decode[network.EventLoadingFailed](ev.Params); ok {
			if n := b.request(ev.SessionID, string(e.RequestID), true); n != nil {
				n.mu.Lock()
				n.Done, n.Failed, n.Duration = true, e.ErrorText, time.Since(n.Time)
				n.mu.Unlock()
				tab.requestEnded()
			}
		}
	case "Inspector.targetCrashed":
		b.Console.Push(LogEntry{Time: time.Now(), TabID: tab.ID, Level: "error", Text: "the tab's renderer crashed"})
		tab.markCrashed()
	}
}

func (b *Browser) requestStarted(tab *Tab, sessionID string, e *network.EventRequestWillBeSent) {
	if e.Request == nil || strings.HasPrefix(e.Request.URL, "data:") {
		return
	}
	key := sessionID + "/" + string(e.RequestID)
	b.mu.Lock()
	if prev := b.requests[key]; prev != nil && e.RedirectResponse != nil {
		// A redirect reuses the request id: close the old hop out.
		prev.mu.Lock()
		prev.Done, prev.Status, prev.Duration = true, e.RedirectResponse.Status, time.Since(prev.Time)
		prev.mu.Unlock()
		tab.requestEnded()
	}
	n := &NetEntry{NetRecord: NetRecord{Time: time.Now(), TabID: tab.ID, Method: e.Request.Method, URL: e.Request.URL + e.Request.URLFragment, Type: string(e.Type)}}
	b.requests[key] = n
	b.mu.Unlock()
	tab.requestStarted()
	b.Network.Push(n)
}

// request finds an in-flight request; done removes it from the table.
func (b *Browser) request(sessionID, requestID string, done bool) *NetEntry {
	key := sessionID + "/" + requestID
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.requests[key]
	if done {
		delete(b.requests, key)
	}
	return n
}

func (b *Browser) answerDialog(tab *Tab, s *cdp.Session, e *page.EventJavascriptDialogOpening) {
	b.mu.Lock()
	policy := b.dialog
	b.mu.Unlock()
	accept := !policy.Dismiss
	params := page.HandleJavaScriptDialogParams{Accept: accept}
	outcome := "accepted"
	if !accept {
		outcome = "dismissed"
	} else if e.Type == page.DialogTypePrompt {
		params.PromptText = policy.PromptText
		if params.PromptText == "" {
			params.PromptText = e.DefaultPrompt
		}
		outcome = fmt.Sprintf("accepted with %q", params.PromptText)
	}
	b.Dialogs.Push(LogEntry{Time: time.Now(), TabID: tab.ID, Level: string(e.Type), Text: fmt.Sprintf("%q → %s", e.Message, outcome)})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Call(ctx, "Page.handleJavaScriptDialog", &params, nil)
	}()
}

func consoleLevel(t string) string {
	switch t {
	case "warning", "error", "info", "debug":
		return t
	case "assert":
		return "error"
	}
	return "log"
}

// formatArgs renders console arguments the way DevTools prints them, roughly:
// strings bare, other values by their description.
func formatArgs(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		parts = append(parts, remoteString(a))
	}
	return strings.Join(parts, " ")
}

func remoteString(a *runtime.RemoteObject) string {
	switch {
	case a == nil:
		return ""
	case a.Type == runtime.RemoteObjectTypeString && len(a.Value) > 0:
		var s string
		if decodeInto(a.Value, &s) {
			return s
		}
	case a.UnserializableValue != "":
		return string(a.UnserializableValue)
	case a.Type == runtime.RemoteObjectTypeUndefined:
		return "undefined"
	case len(a.Value) > 0 && a.Type != runtime.RemoteObjectTypeObject:
		return string(a.Value)
	}
	if a.Description != "" {
		return a.Description
	}
	if len(a.Value) > 0 {
		return string(a.Value)
	}
	return string(a.Type)
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "uncaught exception"
	}
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		text = d.Exception.Description
		if i := strings.Index(text, "\n    at "); i > 0 {
			text = text[:i] // first line only; the stack is noise for an agent
		}
	}
	if d.URL != "" {
		text += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
	}
	return text
}
