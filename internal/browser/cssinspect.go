package browser

import (
	"context"
	"fmt"

	cdproto "github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
)

// CSSInspection is what Chromium's CSS domain says about one element.
type CSSInspection struct {
	Node *cdproto.Node // the element's tag and attributes
	// Matched is Chromium's list of matching rules, lowest priority first.
	Matched []*css.RuleMatch
	Inline  *css.Style // the style attribute (nil without one)
	// Sheets describes the stylesheets the rules come from, by id.
	Sheets   map[cdproto.StyleSheetID]*css.StyleSheetHeader
	Computed []*css.ComputedStyleProperty
	Box      *dom.BoxModel // nil for an element without a box (display: none)
}

// InspectCSS asks the CSS domain for an element's matched rules, computed
// style and box model. The DOM and CSS domains are enabled only for the
// query and disabled afterwards: kept on, Chromium would track every style
// change of the page, which costs later actions their speed.
func (t *Tab) InspectCSS(ctx context.Context, el *Element) (*CSSInspection, error) {
	s := el.Session
	// Stylesheet URLs come only as CSS.styleSheetAdded events, which
	// CSS.enable sends for every existing sheet before it answers.
	added, stop := s.Subscribe("CSS.styleSheetAdded")
	defer stop()

	if err := s.Call(ctx, "DOM.enable", nil, nil); err != nil {
		return nil, err
	}
	defer Afterward(func(ctx context.Context) {
		s.Call(ctx, "CSS.disable", nil, nil)
		s.Call(ctx, "DOM.disable", nil, nil)
	})
	if err := s.Call(ctx, "CSS.enable", nil, nil); err != nil {
		return nil, err
	}
	// Node ids exist only for a document the client has asked for.
	zero := int64(0)
	if _, err := cdproto.Call(ctx, s, dom.GetDocument, dom.GetDocumentParams{Depth: &zero}); err != nil {
		return nil, err
	}
	handle, err := el.Handle(ctx)
	if err != nil {
		return nil, err
	}
	node, err := cdproto.Call(ctx, s, dom.RequestNode, dom.RequestNodeParams{ObjectID: handle})
	if err != nil {
		return nil, err
	}
	if node.NodeID == 0 {
		return nil, fmt.Errorf("the element is not in a document Chromium can inspect")
	}
	desc, err := cdproto.Call(ctx, s, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: handle})
	if err != nil {
		return nil, err
	}
	matched, err := cdproto.Call(ctx, s, css.GetMatchedStylesForNode, css.GetMatchedStylesForNodeParams{NodeID: node.NodeID})
	if err != nil {
		return nil, err
	}
	computed, err := cdproto.Call(ctx, s, css.GetComputedStyleForNode, css.GetComputedStyleForNodeParams{NodeID: node.NodeID})
	if err != nil {
		return nil, err
	}
	out := &CSSInspection{
		Node:     desc.Node,
		Matched:  matched.MatchedCSSRules,
		Inline:   matched.InlineStyle,
		Computed: computed.ComputedStyle,
		Sheets:   map[cdproto.StyleSheetID]*css.StyleSheetHeader{},
	}
	// An element that is not rendered has no box; that is an answer, not a failure.
	if box, err := cdproto.Call(ctx, s, dom.GetBoxModel, dom.GetBoxModelParams{ObjectID: handle}); err == nil {
		out.Box = box.Model
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for {
		select {
		case raw, ok := <-added:
			if !ok {
				return out, nil
			}
			if ev, ok := decode[css.EventStyleSheetAdded](raw); ok && ev.Header != nil {
				out.Sheets[ev.Header.StyleSheetID] = ev.Header
			}
			continue
		default:
		}
		return out, nil
	}
}
