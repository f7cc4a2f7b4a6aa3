package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"

	"github.com/browsehq/browse/internal/cdp"
)

// JSError is an exception thrown by page JavaScript we ran.
type JSError struct{ Text string }

func (e *JSError) Error() string { return e.Text }

// ErrContextGone means the document the script ran in went away (the page
// navigated, or the frame was removed) before the script finished.
var ErrContextGone = errors.New("the page navigated or the frame went away while the script ran")

// Evaluate runs a JavaScript expression in the main frame and returns its
// value (JSON-serialised by the browser). Promises are awaited.
func (t *Tab) Evaluate(ctx context.Context, expr string) (*runtime.RemoteObject, error) {
	return t.EvaluateIn(ctx, "", expr)
}

// EvaluateIn is Evaluate in a given frame ("" is the main frame).
func (t *Tab) EvaluateIn(ctx context.Context, frameID cdproto.FrameID, expr string) (*runtime.RemoteObject, error) {
	s, contextID, err := t.frameTarget(frameID)
	if err != nil {
		return nil, err
	}
	yes := true
	res, err := cdproto.Call(ctx, s, runtime.Evaluate, runtime.EvaluateParams{
		Expression:    expr,
		ContextID:     contextID,
		ReturnByValue: &yes,
		AwaitPromise:  &yes,
		UserGesture:   &yes,
	})
	return evalResult(res.Result, res.ExceptionDetails, err)
}

// CallOn calls a function declaration with this bound to a remote object.
// Arguments are passed by value; the result is returned by value.
func CallOn(ctx context.Context, s *cdp.Session, objectID runtime.RemoteObjectID, fn string, args ...any) (*runtime.RemoteObject, error) {
	return callFunction(ctx, s, objectID, 0, fn, args...)
}

// callFunction is CallOn with this bound to objectID, or, without one, run
// in the execution context contextID.
func callFunction(ctx context.Context, s *cdp.Session, objectID runtime.RemoteObjectID, contextID runtime.ExecutionContextID, fn string, args ...any) (*runtime.RemoteObject, error) {
	yes := true
	callArgs := make([]callArgument, 0, len(args))
	for _, a := range args {
		if id, ok := a.(runtime.RemoteObjectID); ok {
			callArgs = append(callArgs, callArgument{ObjectID: id})
			continue
		}
		v, err := jsonv2.Marshal(a)
		if err != nil {
			return nil, err
		}
		value := jsonv2.Value(v)
		callArgs = append(callArgs, callArgument{Value: &value})
	}
	var res runtime.CallFunctionOnResult
	err := s.Call(ctx, "Runtime.callFunctionOn", &callFunctionOnParams{
		FunctionDeclaration: fn,
		ObjectID:            objectID,
		ExecutionContextID:  contextID,
		Arguments:           callArgs,
		ReturnByValue:       &yes,
		AwaitPromise:        &yes,
		UserGesture:         &yes,
	}, &res)
	return evalResult(res.Result, res.ExceptionDetails, err)
}

// callFunctionOnParams is cdproto's runtime.CallFunctionOnParams with one
// difference: an argument's value is kept when it is the empty string.
// cdproto tags it omitempty, so "" reached the page as undefined.
type callFunctionOnParams struct {
	FunctionDeclaration string                     `json:"functionDeclaration"`
	ObjectID            runtime.RemoteObjectID     `json:"objectId,omitempty"`
	ExecutionContextID  runtime.ExecutionContextID `json:"executionContextId,omitzero"`
	Arguments           []callArgument             `json:"arguments,omitempty"`
	ReturnByValue       *bool                      `json:"returnByValue,omitempty"`
	AwaitPromise        *bool                      `json:"awaitPromise,omitempty"`
	UserGesture         *bool                      `json:"userGesture,omitempty"`
}

type callArgument struct {
	Value    *jsonv2.Value          `json:"value,omitzero"`
	ObjectID runtime.RemoteObjectID `json:"objectId,omitempty"`
}

func evalResult(obj *runtime.RemoteObject, exc *runtime.ExceptionDetails, err error) (*runtime.RemoteObject, error) {
	if err != nil {
		var ce *cdp.Error
		if errors.As(err, &ce) && (strings.Contains(ce.Message, "context was destroyed") ||
			strings.Contains(ce.Message, "Cannot find context") || strings.Contains(ce.Message, "Inspected target navigated")) {
			return nil, ErrContextGone
		}
		return nil, err
	}
	if exc != nil {
		return nil, &JSError{Text: exceptionText(&runtime.ExceptionDetails{Text: exc.Text, Exception: exc.Exception})}
	}
	return obj, nil
}

// frameTarget finds the session and execution context to run script in for a
// frame. The main frame needs no context id: the page session defaults to it.
func (t *Tab) frameTarget(frameID cdproto.FrameID) (*cdp.Session, runtime.ExecutionContextID, error) {
	if err := t.Alive(); err != nil {
		return nil, 0, err
	}
	if frameID == "" || frameID == t.MainFrameID() {
		return t.Session, 0, nil
	}
	c, ok := t.frameContext(frameID)
	if !ok {
		return nil, 0, fmt.Errorf("the frame has no document to run script in (it is detached or still loading); run 'frame main' or 'snapshot' again")
	}
	return c.session, c.id, nil
}

// String renders a by-value result for printing: strings bare, everything
// else as JSON, undefined as "undefined".
func String(obj *runtime.RemoteObject) string {
	if obj == nil {
		return ""
	}
	if obj.Type == runtime.RemoteObjectTypeString {
		var s string
		if decodeInto(obj.Value, &s) {
			return s
		}
	}
	if obj.UnserializableValue != "" {
		return string(obj.UnserializableValue)
	}
	if obj.Type == runtime.RemoteObjectTypeUndefined {
		return "undefined"
	}
	if len(obj.Value) > 0 {
		// Keep the browser's key order; indent objects so they read well.
		var buf bytes.Buffer
		if json.Indent(&buf, obj.Value, "", "  ") == nil {
			return buf.String()
		}
		return string(obj.Value)
	}
	return obj.Description
}
