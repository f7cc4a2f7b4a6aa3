package browser

import "context"

// CallBrowser sends one protocol call on the browser's own session (not a
// tab's), for the browser-wide methods of the 'cdp' command. The caller
// decides which methods may go through.
func (b *Browser) CallBrowser(ctx context.Context, method string, params, result any) error {
	return b.root.Call(ctx, method, params, result)
}
