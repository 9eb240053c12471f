package server

import "net/http"

// faviconSVG is the app's icon: two lanes and a lock, in the page's colours.
const faviconSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
	`<rect width="32" height="32" rx="6" fill="#1b1b1b"/>` +
	`<rect x="7" y="4" width="3" height="24" fill="#0072B2"/><rect x="22" y="4" width="3" height="24" fill="#E69F00"/>` +
	`<rect x="11" y="15" width="10" height="9" rx="1.5" fill="#fff"/>` +
	`<path d="M13 15v-3a3 3 0 0 1 6 0v3" fill="none" stroke="#fff" stroke-width="2"/></svg>`

// favicon answers /favicon.ico with the SVG icon (browsers take SVG there).
func favicon(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "max-age=86400")
	_, _ = w.Write([]byte(faviconSVG))
}
