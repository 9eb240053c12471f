// Package qr draws the QR code of a class's join link as rows of modules,
// which the page draws as an SVG. The encoding is github.com/skip2/go-qrcode's
// (error correction level M, the smallest version the text fits); this
// package only gives its modules the shape the page reads.
package qr

import qrcode "github.com/skip2/go-qrcode"

// MaxBytes is the longest text drawn: a join link is far shorter, and the
// page's drawing stays readable on a projector up to here (version 10).
const MaxBytes = 213

// Rows gives text's QR code as strings of '1' (dark) and '0', one a row,
// without the quiet zone around it (the page draws that), or nil when the
// text is empty or longer than MaxBytes.
func Rows(text string) []string {
	if text == "" || len(text) > MaxBytes {
		return nil
	}
	c, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil
	}
	c.DisableBorder = true
	bitmap := c.Bitmap()
	rows := make([]string, len(bitmap))
	for y, line := range bitmap {
		b := make([]byte, len(line))
		for x, dark := range line {
			b[x] = '0'
			if dark {
				b[x] = '1'
			}
		}
		rows[y] = string(b)
	}
	return rows
}
