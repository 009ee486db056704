package shell

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/chzyer/readline"
)

// Prompts of the interactive loop.
const (
	Prompt         = "ladybug> "
	ContinuePrompt = "   ...> "
)

// Interactive reads statements from the terminal with line editing and a
// history kept in historyFile ("" for none) until Ctrl-D or .quit. Ctrl-C
// at the prompt drops the statement being typed; Ctrl-C while a statement
// runs cancels it (the caller routes SIGINT to Interrupt).
func (s *Shell) Interactive(stdin io.ReadCloser, historyFile string) error {
	rl, err := readline.NewEx(&readline.Config{
		Prompt:                 Prompt,
		HistoryFile:            historyFile,
		HistoryLimit:           5000,
		DisableAutoSaveHistory: true,
		HistorySearchFold:      true,
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
		Stdin:                  stdin,
		Stdout:                 s.stdout,
		Stderr:                 s.stderr,
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	var entry []string // lines of the statement being typed, for history
	for n := 1; !s.Quit(); n++ {
		if s.Pending() {
			rl.SetPrompt(ContinuePrompt)
		} else {
			rl.SetPrompt(Prompt)
			n, entry = 1, entry[:0]
		}
		line, err := rl.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			s.Reset()
			continue
		}
		if err != nil { // io.EOF: Ctrl-D
			break
		}
		if strings.TrimSpace(line) == "" && !s.Pending() {
			continue
		}
		entry = append(entry, line)
		s.Feed(line, "", n)
		if !s.Pending() {
			rl.SaveHistory(strings.Join(entry, " "))
		}
	}
	if s.Pending() {
		fmt.Fprintln(s.stdout)
		s.Flush("")
	}
	return nil
}
