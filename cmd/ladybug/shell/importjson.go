package shell

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// jsonRecords reads a JSON array of objects, or one object per line, as
// rows of the columns named by the first object's keys.
type jsonRecords struct {
	dec   *json.Decoder
	keys  []string
	index map[string]int
	first []any // the first object's values, read to learn the keys
	array bool
	n     int
}

// newJSONRecords starts reading r. With cols (an existing table's
// columns) each object's keys are matched to them; without, the first
// object's keys name the columns.
func newJSONRecords(r io.Reader, cols []string) (*jsonRecords, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	dec := json.NewDecoder(br)
	dec.UseNumber()
	j := &jsonRecords{dec: dec, index: map[string]int{}, keys: cols}
	for i, c := range cols {
		j.index[strings.ToLower(c)] = i
	}
	tok, err := dec.Token()
	if err == io.EOF {
		return j, nil
	}
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		j.array = true
		if !dec.More() {
			return j, nil
		}
		if tok, err = dec.Token(); err != nil {
			return nil, err
		}
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("expected a JSON object or an array of objects")
	}
	keys, vals, err := j.object(cols == nil)
	if err != nil {
		return nil, err
	}
	if cols == nil {
		j.keys = keys
	}
	j.first = vals
	return j, nil
}

// object reads the rest of an object whose '{' was read. With learn, its
// keys become the columns; otherwise values go to the known columns and
// other keys are an error.
func (j *jsonRecords) object(learn bool) ([]string, []any, error) {
	var keys []string
	vals := make([]any, len(j.keys))
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := j.dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		v, err := jsonValue(raw)
		if err != nil {
			return nil, nil, err
		}
		if learn {
			j.index[strings.ToLower(key)] = len(keys)
			keys = append(keys, key)
			vals = append(vals, v)
			continue
		}
		i, ok := j.index[strings.ToLower(key)]
		if !ok {
			return nil, nil, fmt.Errorf("key %q is not a column of the table", key)
		}
		vals[i] = v
	}
	_, err := j.dec.Token() // '}'
	return keys, vals, err
}

// jsonValue maps a JSON value to a column value: numbers to INTEGER or
// REAL, true/false to 1/0, objects and arrays to their JSON text.
func jsonValue(raw json.RawMessage) (any, error) {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "null":
		return nil, nil
	case s == "true":
		return int64(1), nil
	case s == "false":
		return int64(0), nil
	case s[0] == '"':
		var str string
		err := json.Unmarshal(raw, &str)
		return str, err
	case s[0] == '{' || s[0] == '[':
		return s, nil
	}
	n := json.Number(s)
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	return n.Float64()
}

func (j *jsonRecords) read() ([]any, error) {
	j.n++
	if j.first != nil {
		v := j.first
		j.first = nil
		return v, nil
	}
	if j.array && !j.dec.More() {
		return nil, io.EOF
	}
	tok, err := j.dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("expected a JSON object")
	}
	_, vals, err := j.object(false)
	return vals, err
}

func (j *jsonRecords) line() int { return j.n }

// progress draws a one-line progress bar on a terminal: bytes read, rows,
// rows per second and the time left.
type progress struct {
	w     io.Writer
	total int64
	read  *int64
	start time.Time
	last  time.Time
}

func (p *progress) tick(rows int64) {
	now := time.Now()
	if now.Sub(p.last) < 200*time.Millisecond {
		return
	}
	p.last = now
	p.draw(rows, now)
}

func (p *progress) draw(rows int64, now time.Time) {
	el := now.Sub(p.start).Seconds()
	frac := float64(*p.read) / float64(max(p.total, 1))
	frac = min(frac, 1)
	const width = 30
	bar := strings.Repeat("█", int(frac*width)) + strings.Repeat("░", width-int(frac*width))
	eta := "?"
	if frac > 0 && el > 0 {
		eta = (time.Duration(el*(1-frac)/frac) * time.Second).Round(time.Second).String()
	}
	rate := 0.0
	if el > 0 {
		rate = float64(rows) / el
	}
	fmt.Fprintf(p.w, "\r%s %5.1f%%  %d rows  %.0f rows/s  ETA %s ", bar, frac*100, rows, rate, eta)
}

func (p *progress) done(rows int64) {
	p.draw(rows, time.Now())
	fmt.Fprintln(p.w)
}
