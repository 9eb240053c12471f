package scenario

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/lockstep/lockstep/internal/fact"
)

// String writes the duration as Go does ("3s", "1.5s", "150ms").
func (d Duration) String() string { return time.Duration(d).String() }

// parseDuration reads "3s", "150ms", "-2s", "0". Whether a negative
// duration makes sense is up to the field (see signedDurations).
func parseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, problem{fact.Say("scenario.bad-duration", s)}
	}
	return Duration(v), nil
}

// UnmarshalYAML reads a duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return problem{fact.Say("scenario.want-duration")}
	}
	v, err := parseDuration(n.Value)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalYAML writes a duration string.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// MarshalJSON writes a duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return problem{fact.Say("scenario.want-duration-string")}
	}
	v, err := parseDuration(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// fmtDuration writes a duration in its shortest exact form: 10m, 3s,
// 2500ms, 1.5µs.
func fmtDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	case d%time.Millisecond == 0:
		return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	}
	return d.String()
}
