package adapt

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// Repair configures repair rounds (self-debugging): a sample whose checked
// answer asks for it is asked again, with a prompt that shows the model
// its last answer and what the tests said, up to Rounds times. Each round
// is journaled like the first answer, so a stopped run resumes in the
// middle of a sample's rounds. The sample's result is its last round's;
// SampleResult.Rounds keeps the earlier ones. Gold checks are never
// repaired.
type Repair struct {
	// Name identifies the repair prompt in the run's settings (a journal
	// made with another repair prompt is refused on resume).
	Name string
	// Rounds is the most repair rounds per sample.
	Rounds int
	// Retry reports whether a checked answer asks for another round. nil
	// means: a scored answer that did not pass. Results that are not
	// scored (a model or infrastructure error) are never repaired.
	Retry func(t *Task, last report.SampleResult) bool
	// Render makes the messages of a repair round from the task and the
	// last round's result, which holds the completion (Completion), the
	// code that was tested (Code) and the test outcomes (Tests, Detail).
	Render func(t *Task, last report.SampleResult) ([]Message, error)
}

func (r *Repair) validate() error {
	switch {
	case r.Rounds < 0:
		return fmt.Errorf("adapt: Repair.Rounds is %d, want >= 0", r.Rounds)
	case r.Render == nil:
		return errors.New("adapt: Repair has no Render function")
	case r.Name == "":
		return errors.New("adapt: Repair has no Name")
	}
	return nil
}

// id is the repair's part of RunInfo.
func (r *Repair) id() string {
	if r == nil || r.Rounds == 0 {
		return ""
	}
	return r.Name + "x" + strconv.Itoa(r.Rounds)
}

// wants reports whether res, the result of round, asks for another round.
func (r *Repair) wants(t *Task, round int, res report.SampleResult) bool {
	if r == nil || round >= r.Rounds || !res.Scored() {
		return false
	}
	if r.Retry == nil {
		return res.Outcome != report.OutcomePassed
	}
	return r.Retry(t, res)
}
