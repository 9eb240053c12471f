package sim

import "testing"

// A reply's answer is read from the server's own bytes: its type, and a
// gist the page shows in a badge without reading the reply's text.
func TestRepliesAndTheirAnswers(t *testing.T) {
	for _, c := range []struct {
		resp, text string
		want       Answer
	}{
		{"+OK\r\n", "OK", Answer{Type: AnswerOK}},
		{"+PONG\r\n", "PONG", Answer{Type: AnswerStatus, Gist: "PONG"}},
		{":42\r\n", "(integer) 42", Answer{Type: AnswerInt, Gist: "42"}},
		{":-1\r\n", "(integer) -1", Answer{Type: AnswerInt, Gist: "-1"}},
		{"$-1\r\n", "(nil)", Answer{Type: AnswerNil}},
		{"*-1\r\n", "(nil)", Answer{Type: AnswerNil}},
		{"*0\r\n", "(empty array)", Answer{Type: AnswerEmpty}},
		{"$4\r\n7f3a\r\n", `"7f3a"`, Answer{Type: AnswerString, Gist: "7f3a"}},
		{"$3\r\na\"b\r\n", `"a\"b"`, Answer{Type: AnswerString, Gist: `a\"b`}},
		{"-WRONGTYPE Operation against a key\r\n", "(error) WRONGTYPE Operation against a key", Answer{Type: AnswerError, Gist: "WRONGTYPE"}},
		{"-ERR unknown command\r\n", "(error) ERR unknown command", Answer{Type: AnswerError, Gist: "ERR"}},
		{"-NOSCRIPT No matching script.\r\n", "(error) NOSCRIPT No matching script.", Answer{Type: AnswerError, Gist: "NOSCRIPT"}},
		// No code: the first word is not in capitals, or too short.
		{"-something went wrong\r\n", "(error) something went wrong", Answer{Type: AnswerError}},
		{"-OKish\r\n", "(error) OKish", Answer{Type: AnswerError}},
		{"*2\r\n$1\r\na\r\n$1\r\nb\r\n", `["a", "b"]`, Answer{Type: AnswerList, Gist: "2"}},
		{"*1\r\n$1\r\na\r\n", `["a"]`, Answer{Type: AnswerList, Gist: "1"}},
		// EXEC's reply to one queued command is summed up by that reply.
		{"*1\r\n:1\r\n", "[(integer) 1]", Answer{Type: AnswerInt, Gist: "1"}},
		// A pipeline: the last reply's answer.
		{"+OK\r\n+QUEUED\r\n*1\r\n:0\r\n", "OK; QUEUED; [(integer) 0]", Answer{Type: AnswerInt, Gist: "0"}},
		{"+OK\r\n+QUEUED\r\n+QUEUED\r\n*2\r\n+OK\r\n:1\r\n", "OK; QUEUED; QUEUED; [OK, (integer) 1]", Answer{Type: AnswerList, Gist: "2"}},
		{"+OK\r\n$5\r\nab", "OK; (partial reply)", Answer{}},
	} {
		text, got := replies([]byte(c.resp))
		if text != c.text || got != c.want {
			t.Errorf("replies(%q) = %q, %+v; want %q, %+v", c.resp, text, got, c.text, c.want)
		}
	}
}

// A request that fails before any reply: a node that is down refuses it
// (the page says "refused"); another error is an error.
func TestAnswerOfAFailedRequest(t *testing.T) {
	if got := errAnswer(refusedError{"r1"}); got != (Answer{Type: AnswerRefused}) {
		t.Errorf("refused: %+v", got)
	}
	if got := errAnswer(timeoutError{"r1"}); got.Type != AnswerError {
		t.Errorf("timeout: %+v", got)
	}
}
