// Package cdp is browse's own small Chrome DevTools Protocol client: a
// transport, a connection that matches responses to calls, and flat sessions
// routed by sessionId. Typed messages come from github.com/chromedp/cdproto;
// Session implements its cdp.Session interface so cdproto's typed
// cdp.Call(ctx, s, page.Navigate, …) works on our sessions.
package cdp

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
)

// Event is one protocol event as it arrived.
type Event struct {
	SessionID string
	Method    string
	Params    jsonv2.Value
}

// Error is an error answer from the browser.
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *Error) Error() string {
	if e.Data != "" {
		return fmt.Sprintf("%s (%s)", e.Message, e.Data)
	}
	return e.Message
}

// ErrClosed is returned by calls on a connection whose browser went away.
var ErrClosed = errors.New("the browser connection is closed")

type message struct {
	ID        int64        `json:"id,omitzero"`
	SessionID string       `json:"sessionId,omitzero"`
	Method    string       `json:"method,omitzero"`
	Params    jsonv2.Value `json:"params,omitzero"`
	Result    jsonv2.Value `json:"result,omitzero"`
	Error     *Error       `json:"error,omitzero"`
}

type reply struct {
	result jsonv2.Value
	err    error
}

type subKey struct{ session, method string }

type subscriber struct {
	ch chan jsonv2.Value
}

// Conn is one connection to a browser. It is safe for concurrent use.
type Conn struct {
	t      Transport
	nextID atomic.Int64

	mu      sync.Mutex
	pending map[int64]chan reply
	subs    map[subKey][]*subscriber
	onEvent func(Event)

	done   chan struct{}
	closed error
}

// NewConn starts reading from t. onEvent, if set, sees every event in arrival
// order on the reader goroutine: it must not block or call the browser inline.
func NewConn(t Transport, onEvent func(Event)) *Conn {
	c := &Conn{
		t:       t,
		pending: make(map[int64]chan reply),
		subs:    make(map[subKey][]*subscriber),
		onEvent: onEvent,
		done:    make(chan struct{}),
	}
	go c.readLoop()
	return c
}

// Done is closed when the connection ends (the browser exited or the socket dropped).
func (c *Conn) Done() <-chan struct{} { return c.done }

// Close ends the connection.
func (c *Conn) Close() error { return c.t.Close() }

func (c *Conn) readLoop() {
	var err error
	for {
		var raw []byte
		raw, err = c.t.Recv()
		if err != nil {
			break
		}
		var m message
		if err := jsonv2.Unmarshal(raw, &m); err != nil {
			continue // a frame we cannot parse is dropped, not fatal
		}
		if m.ID != 0 {
			c.mu.Lock()
			ch := c.pending[m.ID]
			delete(c.pending, m.ID)
			c.mu.Unlock()
			if ch != nil {
				if m.Error != nil {
					ch <- reply{err: m.Error}
				} else {
					ch <- reply{result: m.Result}
				}
			}
			continue
		}
		if m.Method == "" {
			continue
		}
		if c.onEvent != nil {
			c.onEvent(Event{SessionID: m.SessionID, Method: m.Method, Params: m.Params})
		}
		c.mu.Lock()
		for _, s := range c.subs[subKey{m.SessionID, m.Method}] {
			select {
			case s.ch <- m.Params:
			default: // a subscriber that stopped reading loses events, the reader never blocks
			}
		}
		c.mu.Unlock()
	}
	c.mu.Lock()
	c.closed = fmt.Errorf("%w: %v", ErrClosed, err)
	for id, ch := range c.pending {
		ch <- reply{err: ErrClosed}
		delete(c.pending, id)
	}
	for k, list := range c.subs {
		for _, s := range list {
			close(s.ch)
		}
		delete(c.subs, k)
	}
	c.mu.Unlock()
	close(c.done)
}

// Call sends method with params on sessionID ("" is the browser) and decodes
// the answer into result (which may be nil).
func (c *Conn) Call(ctx context.Context, sessionID, method string, params, result any) error {
	id, ch, err := c.send(sessionID, method, params)
	if err != nil {
		return err
	}
	return c.await(ctx, id, ch, method, result)
}

// send writes one call and returns the channel its reply will arrive on.
func (c *Conn) send(sessionID, method string, params any) (int64, chan reply, error) {
	m := message{ID: c.nextID.Add(1), SessionID: sessionID, Method: method}
	if params != nil {
		p, err := jsonv2.Marshal(params)
		if err != nil {
			return 0, nil, fmt.Errorf("encoding %s: %w", method, err)
		}
		m.Params = p
	}
	raw, err := jsonv2.Marshal(&m)
	if err != nil {
		return 0, nil, err
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.closed != nil {
		c.mu.Unlock()
		return 0, nil, ErrClosed
	}
	c.pending[m.ID] = ch
	c.mu.Unlock()

	if err := c.t.Send(raw); err != nil {
		c.forget(m.ID)
		return 0, nil, fmt.Errorf("%w: %v", ErrClosed, err)
	}
	return m.ID, ch, nil
}

func (c *Conn) await(ctx context.Context, id int64, ch chan reply, method string, result any) error {
	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if result != nil && len(r.result) > 0 {
			if err := jsonv2.Unmarshal(r.result, result); err != nil {
				return fmt.Errorf("decoding %s: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *Conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

func (c *Conn) subscribe(sessionID, method string) (<-chan jsonv2.Value, func()) {
	s := &subscriber{ch: make(chan jsonv2.Value, 256)}
	k := subKey{sessionID, method}
	c.mu.Lock()
	if c.closed != nil {
		c.mu.Unlock()
		close(s.ch)
		return s.ch, func() {}
	}
	c.subs[k] = append(c.subs[k], s)
	c.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			list := c.subs[k]
			for i, x := range list {
				if x == s {
					c.subs[k] = append(list[:i:i], list[i+1:]...)
					break
				}
			}
			if len(c.subs[k]) == 0 {
				delete(c.subs, k)
			}
		})
	}
}

// Session returns the flat session with the given id ("" is the browser).
func (c *Conn) Session(id string) *Session { return &Session{conn: c, id: id} }

// Session is one flat CDP session. It implements cdproto's cdp.Session.
type Session struct {
	conn *Conn
	id   string
}

var _ cdproto.Session = (*Session)(nil)

// ID is the sessionId ("" for the browser session).
func (s *Session) ID() string { return s.id }

// Call implements cdproto's cdp.Session.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	return s.conn.Call(ctx, s.id, method, params, result)
}

// Pipeline sends calls back to back without waiting, then waits for every
// answer: the browser runs them in order, and the batch costs one round trip
// instead of one per call. It returns the first error.
func (s *Session) Pipeline(ctx context.Context, calls ...PipelinedCall) error {
	type sent struct {
		id     int64
		ch     chan reply
		method string
		result any
	}
	var pending []sent
	var first error
	for _, call := range calls {
		id, ch, err := s.conn.send(s.id, call.Method, call.Params)
		if err != nil {
			first = err
			break
		}
		pending = append(pending, sent{id, ch, call.Method, call.Result})
	}
	for _, p := range pending {
		if err := s.conn.await(ctx, p.id, p.ch, p.method, p.result); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// PipelinedCall is one call of a Pipeline.
type PipelinedCall struct {
	Method string
	Params any
	Result any // decoded into when not nil
}

// Subscribe implements cdproto's cdp.Session: events of method on this
// session are buffered from the moment it returns.
func (s *Session) Subscribe(method string) (<-chan jsonv2.Value, func()) {
	return s.conn.subscribe(s.id, method)
}
