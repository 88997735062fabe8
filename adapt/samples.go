package adapt

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/adaptbench/adaptbench/adapt/report"
)

// samplePlan is what is left to do of one task's samples.
type samplePlan struct {
	t       *Task
	need    []int // samples whose first answer is to be asked for
	prev    int   // attempts of earlier runs
	ready   []sampleJob
	repairs []sampleJob // samples whose next repair round is to be asked for
}

// planSamples plans from what the journal holds, before any worker
// writes to it.
func (e *evaluation) planSamples(valid []*Task) []samplePlan {
	var plans []samplePlan
	for _, t := range valid {
		p := samplePlan{t: t}
		for s := range samplesOf(e.info, t.ID) {
			st := e.state(t, s)
			switch {
			case st.done:
			case st.comp != nil:
				p.ready = append(p.ready, sampleJob{t: t, sample: s, round: st.round, comp: *st.comp, prev: st.resAttempts})
			case st.round == 0:
				p.need = append(p.need, s)
				p.prev = max(p.prev, st.compAttempts)
			default:
				p.repairs = append(p.repairs, sampleJob{t: t, sample: s, round: st.round, prev: st.compAttempts, last: st.last})
			}
		}
		if len(p.need)+len(p.ready)+len(p.repairs) > 0 {
			plans = append(plans, p)
		}
	}
	return plans
}

// runSamples asks the model for the planned samples and checks the
// answers: one goroutine queues jobs (answers asked for at most
// ModelConcurrency at a time), Parallelism workers check them.
func (e *evaluation) runSamples(ctx context.Context, plans []samplePlan) error {
	e.jobs = make(chan sampleJob, 2*e.o.Parallelism)
	e.modelSem = make(chan struct{}, e.o.ModelConcurrency)
	gen, gctx := errgroup.WithContext(ctx)
	e.group = gen
	gen.Go(func() error { return e.queueSamples(gctx, plans) })
	for range e.o.Parallelism {
		gen.Go(func() error {
			for {
				select {
				case j, ok := <-e.jobs:
					if !ok {
						return nil
					}
					if err := e.checkSample(gctx, j); err != nil {
						return err
					}
				case <-gctx.Done():
					return gctx.Err()
				}
			}
		})
	}
	err := gen.Wait()
	// Jobs left queued when ctx ended give back their count, so that the
	// closer's wait in queueSamples ends.
	for drained := false; !drained; {
		select {
		case _, ok := <-e.jobs:
			if ok {
				e.pending.Done()
			} else {
				drained = true
			}
		default:
			drained = true
		}
	}
	return err
}

// queueSamples queues the planned samples' jobs: the answers the journal
// holds, then those the model gives; it starts the repair rounds due.
func (e *evaluation) queueSamples(gctx context.Context, plans []samplePlan) error {
	defer func() {
		// Repair rounds queue answers too: the queue closes when no
		// job and no repair round can queue another (e.pending). When
		// ctx ends first it stays open: everyone stops on ctx.
		idle := make(chan struct{})
		go func() { e.pending.Wait(); close(idle) }()
		select {
		case <-idle:
			close(e.jobs)
		case <-gctx.Done():
		}
	}()
	var inner errgroup.Group
	inner.SetLimit(e.o.ModelConcurrency)
	for _, p := range plans {
		for _, j := range p.repairs {
			e.repair(gctx, j)
		}
		inner.Go(func() error { return e.askPlanned(gctx, p) })
	}
	return inner.Wait()
}

// askPlanned queues a task's answered samples, then asks the model for
// the samples that need a first answer and queues them.
func (e *evaluation) askPlanned(gctx context.Context, p samplePlan) error {
	t, need := p.t, p.need
	for _, j := range p.ready {
		e.pending.Add(1)
		if !e.send(gctx, j) {
			return gctx.Err()
		}
	}
	if len(need) == 0 {
		return nil
	}
	if !acquire(gctx, e.modelSem) {
		return gctx.Err()
	}
	comps, attempts, ok := e.generate(gctx, t, need, e.prompt(t), 0)
	<-e.modelSem
	if !ok {
		return gctx.Err()
	}
	for i, s := range need {
		c := comps[i]
		e.record(journalRecord{Kind: "completion", Task: t.ID, Sample: s, Attempts: p.prev + attempts, Completion: &c})
	}
	for i, s := range need {
		if comps[i].Err != "" || e.draw {
			// A model error, or a draw: nothing to check.
			e.progressModelError(comps[i].Err != "")
			continue
		}
		e.pending.Add(1)
		if !e.send(gctx, sampleJob{t: t, sample: s, comp: comps[i]}) {
			return gctx.Err()
		}
	}
	return nil
}

// sampleJob is one round of one sample: its completion to check, or, for
// a repair round not yet asked for, the last round's result.
type sampleJob struct {
	t      *Task
	sample int
	round  int
	comp   report.Completion
	prev   int                  // attempts of earlier runs
	last   *report.SampleResult // the previous round's result, with its completion
}

// send queues j for the checkers. Every queued job holds one count of
// e.pending, taken by the caller and given back by the checker (or here,
// when ctx ends first), so that the queue closes only when no job and no
// repair round can queue another.
func (e *evaluation) send(ctx context.Context, j sampleJob) bool {
	select {
	case e.jobs <- j:
		return true
	case <-ctx.Done():
		e.pending.Done()
		return false
	}
}

// checkSample checks one round's answer, journals the result, and starts
// the next repair round when the result asks for one.
func (e *evaluation) checkSample(ctx context.Context, j sampleJob) error {
	defer e.pending.Done()
	res, ok := e.check(ctx, j.prev, func() (report.SampleResult, error) {
		return e.checkCompletion(ctx, j.t, j.comp)
	})
	if !ok {
		return ctx.Err()
	}
	res.Sample = j.sample
	more := !e.draw && e.o.Repair.wants(j.t, j.round, res)
	e.record(journalRecord{Kind: "result", Task: j.t.ID, Sample: j.sample, Round: j.round, Repair: more, Attempts: res.Attempts, Result: &res})
	e.progress(res.Outcome == report.OutcomePassed, more)
	if more {
		last := res
		c := j.comp
		last.Completion = &c
		e.repair(ctx, sampleJob{t: j.t, sample: j.sample, round: j.round + 1, last: &last})
	}
	return nil
}

// repair asks, in a goroutine of its own, for the answer of repair round
// j.round of a sample and queues it for checking. It holds a count of
// e.pending from the call until the answer is queued.
func (e *evaluation) repair(ctx context.Context, j sampleJob) {
	e.pending.Add(1)
	e.group.Go(func() error {
		if !acquire(ctx, e.modelSem) {
			e.pending.Done()
			return ctx.Err()
		}
		comps, attempts, ok := e.generate(ctx, j.t, []int{j.sample}, func() ([]Message, error) {
			return e.o.Repair.Render(j.t, *j.last)
		}, j.round)
		<-e.modelSem
		if !ok {
			e.pending.Done()
			return ctx.Err()
		}
		c := comps[0]
		e.record(journalRecord{Kind: "completion", Task: j.t.ID, Sample: j.sample, Round: j.round, Attempts: j.prev + attempts, Completion: &c})
		if c.Err != "" {
			e.progressModelError(true)
			e.pending.Done()
			return nil
		}
		j.comp, j.prev = c, 0
		if !e.send(ctx, j) {
			return ctx.Err()
		}
		return nil
	})
}

func acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// sampleState is where one sample stands in what the journal holds.
type sampleState struct {
	round    int  // the round to work on
	done     bool // nothing is left to do
	modelErr bool // done: the round's answer is a model error kept as final
	drawn    bool // done: a Draw's answer
	checks   int  // final checks the journal holds for the sample
	passes   int  // of which passed
	// comp is the round's answer when it is journaled and is to be
	// checked, with the attempts of its earlier checks.
	comp        *report.Completion
	resAttempts int
	// compAttempts is the attempts of the round's model request so far.
	compAttempts int
	// last is the previous round's result, for a repair round.
	last *report.SampleResult
}

func (e *evaluation) state(t *Task, s int) sampleState {
	var st sampleState
	for r := 0; ; r++ {
		k := sampleKey{t.ID, s, r}
		st.round = r
		if res, ok := e.recs.results[k]; ok && e.final(res) {
			st.checks++
			if res.Outcome == report.OutcomePassed {
				st.passes++
			}
			if e.recs.repair[k] && e.o.Repair != nil && r < e.o.Repair.Rounds {
				last := res
				c := e.recs.completions[k]
				last.Completion = &c
				st.last = &last
				continue
			}
			st.done = true
			return st
		}
		c, ok := e.recs.completions[k]
		switch {
		case ok && c.Err == "" && e.draw:
			st.done, st.drawn = true, true
		case ok && c.Err == "":
			st.comp, st.resAttempts = &c, e.recs.results[k].Attempts
		case ok && e.answered(c):
			st.done, st.modelErr = true, true
		default:
			st.compAttempts = e.recs.compAttempts[k]
		}
		return st
	}
}

// checkCompletion takes the answer out of a completion with the Answer
// option (or Extract) and checks it.
func (e *evaluation) checkCompletion(ctx context.Context, t *Task, c report.Completion) (report.SampleResult, error) {
	if e.o.Answer == nil {
		return e.chk.checkCompletion(ctx, t, c.Text)
	}
	a, panicked, err := answerOf(e.o.Answer, t, c)
	if panicked {
		// The caller's code failed, not the model: never a score.
		return report.SampleResult{Outcome: report.OutcomeInfraError, Detail: err.Error()}, err
	}
	if err != nil {
		return noAnswer(err), nil
	}
	return e.chk.Check(ctx, t, a)
}

// answerOf calls an Answer function, turning a panic into an error.
func answerOf(f func(*Task, report.Completion) (Answer, error), t *Task, c report.Completion) (a Answer, panicked bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, panicked, err = Answer{}, true, fmt.Errorf("adapt: task %q: Answer panicked: %v", t.ID, r)
		}
	}()
	a, err = f(t, c)
	return a, false, err
}

// check runs one check, again after a backoff while it ends in an
// infrastructure error, up to Attempts times. prev is the attempts an
// earlier run made. It returns false when ctx ended first.
func (e *evaluation) check(ctx context.Context, prev int, run func() (report.SampleResult, error)) (report.SampleResult, bool) {
	for attempt := 1; ; attempt++ {
		res, _ := run() // an error is recorded in res as an infrastructure error
		if ctx.Err() != nil {
			return res, false
		}
		if res.Outcome != report.OutcomeInfraError {
			return res, true
		}
		if attempt >= e.o.Attempts {
			res.Attempts = prev + attempt
			return res, true
		}
		if !sleep(ctx, e.o.Backoff<<(attempt-1)) {
			return res, false
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
