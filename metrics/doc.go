// Package metrics provides pure statistical functions for scoring LLM
// code-generation benchmarks: sampling-based success estimators, confidence
// intervals, paired significance tests, inter-rater agreement and a few
// descriptive helpers.
//
// Every function is a pure computation over numbers, outcomes or labels: the
// package performs no I/O, starts no goroutines, keeps no global state and
// needs no cgo. Invalid input is reported through errors whose text starts
// with "metrics: " and which wrap one of the sentinel errors
// [ErrInvalidArgument], [ErrEmpty] or [ErrLengthMismatch]; the latter two also
// wrap [ErrInvalidArgument], so callers that only care whether the input was
// acceptable can test for that one with [errors.Is].
//
// # Sampling estimators: pass@k and pass^k
//
// When a model is sampled n times on a task and c of the samples are correct,
// [PassAtK] estimates the probability that at least one of k samples is
// correct (the unbiased estimator of Chen et al. 2021, "Evaluating Large
// Language Models Trained on Code"), and [PassHatK] estimates the probability
// that all k of k samples are correct (pass^k, as used by tau-bench). Both are
// evaluated as short products of ratios rather than with binomial
// coefficients, so they stay accurate for n in the thousands. [MeanPassAtK]
// and [MeanPassHatK] macro-average the estimators over benchmark items, each
// item carrying its own sample count as a [Count].
//
// # Confidence intervals
//
// [Wilson] returns the Wilson score interval for a binomial proportion, such
// as a pass rate over a set of items. [Bootstrap] returns a seeded percentile
// bootstrap interval for an arbitrary statistic and [BootstrapMean] does so
// for the mean; the same seed always yields the same [Interval].
//
// # Paired comparison of two models
//
// [McNemar] compares two models evaluated on the same items from their
// per-item outcomes, and [McNemarCounts] does the same from the two discordant
// counts. Below [McNemarExactThreshold] discordant pairs the p-value is the
// exact two-sided binomial one; from there on it comes from the chi-square
// statistic with continuity correction.
//
// # Agreement between raters
//
// [CohenKappa] measures the chance-corrected agreement of two raters (for
// example an LLM judge and a human, or two judges) over the same items, for
// any comparable label type.
//
// # Contamination: peakedness of sampled outputs
//
// [EditDistance] is the Levenshtein distance between two sequences of any
// comparable element (token IDs, runes). [Peakedness] is the measure of
// CDD (Dong et al. 2024, "Generalization or Memorization: Data
// Contamination and Trustworthy Evaluation for Large Language Models"):
// the share of a model's sampled outputs within an edit distance of α·l
// of a reference output, l being the longest length; CDD flags an item
// as contaminated when it exceeds ξ. Tokenizing and choosing the
// reference (the greedy output, or a ground truth) are the caller's.
//
// # Descriptive helpers
//
// [Mean], [StdDev] (sample standard deviation), [Quantile] and
// [RelativeDegradation] (the relative drop of a score from a baseline) cover
// the arithmetic that reports need around the estimators above.
//
// # Example
//
//	// Per-item sample counts: 10 samples per task, c of them passed.
//	items := []metrics.Count{{N: 10, C: 3}, {N: 10, C: 0}, {N: 10, C: 10}}
//	p5, err := metrics.MeanPassAtK(items, 5)
//	if err != nil {
//		return err
//	}
//
//	// 95% interval for a pass rate of 8 tasks out of 10.
//	ci, err := metrics.Wilson(8, 10, 0.95)
//	if err != nil {
//		return err
//	}
//
//	// Is model B significantly better than model A on the same tasks?
//	res, err := metrics.McNemar(passedA, passedB)
//	if err != nil {
//		return err
//	}
//	fmt.Printf("pass@5=%.3f CI=[%.3f, %.3f] p=%.4f\n", p5, ci.Lo, ci.Hi, res.PValue)
package metrics
