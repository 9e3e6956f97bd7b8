# Hist triggers for Linux 6.12: build, boot and test harness.
# See README.md.

# make fuzz and make stress default to the debug kernel unless DEBUG is given.
DEBUG_GIVEN := $(filter-out undefined,$(origin DEBUG))
BASE        ?= ours
DEBUG       ?= 0
TESTS       ?=
EXTRA_TESTS ?=
# OFFLINE=1: do not ask the archive whether it serves a newer base.
OFFLINE     ?= 0
# KERNEL=7.3: the mainline base instead of 6.12 (see README).
KERNEL      ?= 6.12
export BASE DEBUG TESTS EXTRA_TESTS OFFLINE KERNEL

H := harness

SERIES_OUT  ?= out/series

.PHONY: help check check-debug mutants run shell build print-base checkpatch diff fuzz stress \
	series series-check cross docs bench profile clean-cache

help:
	@sed -n '/^## Commands/,/^## /p' README.md | sed '$$d'

# The base is looked up once, at the start: the later steps test the
# same tree whatever the archive serves meanwhile.
SAME_BASE := BASE_CHECK_MINUTES=1000000

# Each step that passed is noted in SUMMARY (report.sh adds its counts);
# the last line of a run that passed sums them all.  A failed step
# stops the run with its own report last.
SUMMARY = $${HARNESS_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/hist-harness}/logs/summary-$(KERNEL)-$@.txt
STEP = HARNESS_SUMMARY=$(SUMMARY)
DONE = && echo "step $(1)" >>$(SUMMARY)

check:
	@mkdir -p "$$(dirname $(SUMMARY))" && : >$(SUMMARY)
	@$(STEP) RUN_LABEL=tests $(H)/run.sh check $(call DONE,tests)
	@$(STEP) RUN_LABEL=boot $(SAME_BASE) $(H)/boot.sh $(call DONE,boot)
	@$(STEP) $(SAME_BASE) FUZZ_SMOKE=1 $(H)/fuzz.sh $(call DONE,fuzz-smoke)
	@$(if $(filter stock,$(BASE)),true,$(STEP) RUN_LABEL=stress $(SAME_BASE) STRESS_SHORT=1 NO_BUILD=1 $(H)/stress.sh $(call DONE,stress-smoke))
	@$(if $(filter stock,$(BASE)),true,$(STEP) $(SAME_BASE) $(H)/diff.sh $(call DONE,diff))
	@$(if $(filter stock,$(BASE)),true,$(SAME_BASE) $(H)/docs.sh $(call DONE,docs))
	@$(if $(filter stock,$(BASE)),true,$(SAME_BASE) SERIES_BUILD=none $(H)/series-check.sh $(call DONE,series-check))
	@$(H)/summary.sh $(SUMMARY)

# The DEBUG=1 part of CI (.ci/run): the lifetime and regression tests and
# every KUnit case, then the fuzz and stress smokes, on the kernel with
# KASAN, kmemleak, lockdep and UBSAN, whose reports fail the run.
DEBUG_TESTS := regress|synth-perf|lifecycle|instance|rmdir|module|busy|remove|named|poll|^(tracing_map|hist_trigger_parse|hist_expr|hist_json|hist_run|latency_hist)\.

check-debug:
	@mkdir -p "$$(dirname $(SUMMARY))" && : >$(SUMMARY)
	@$(STEP) RUN_LABEL=debug-tests DEBUG=1 TESTS='$(DEBUG_TESTS)' $(H)/run.sh check $(call DONE,debug-tests)
	@$(STEP) RUN_LABEL=debug-boot $(SAME_BASE) DEBUG=1 $(H)/boot.sh $(call DONE,debug-boot)
	@$(STEP) $(SAME_BASE) DEBUG=1 FUZZ_SMOKE=1 NO_BUILD=1 $(H)/fuzz.sh $(call DONE,debug-fuzz-smoke)
	@$(STEP) RUN_LABEL=debug-stress $(SAME_BASE) DEBUG=1 STRESS_SHORT=1 NO_BUILD=1 $(H)/stress.sh $(call DONE,debug-stress-smoke)
	@$(H)/summary.sh $(SUMMARY)

# Memory bugs put into a teardown path on purpose (harness/mutants/):
# the DEBUG=1 run of the tests that walk it must report each one.
mutants:
	@$(H)/mutants.sh

run:
	@$(H)/run.sh run

shell:
	@$(H)/run.sh shell

diff:
	@$(H)/diff.sh

fuzz:
	@DEBUG=$(if $(DEBUG_GIVEN),$(DEBUG),1) $(H)/fuzz.sh

stress:
	@DEBUG=$(if $(DEBUG_GIVEN),$(DEBUG),1) $(H)/stress.sh

build:
	@$(H)/build.sh $(BASE) $(DEBUG)

print-base:
	@$(H)/fetch-base.sh

checkpatch:
	@$(H)/checkpatch.sh

series:
	@$(H)/series.sh $(SERIES_OUT)

series-check:
	@SERIES_BUILD=$(if $(filter 0,$(FULL)),last,all) $(H)/series-check.sh

cross:
	@ARCHES='$(ARCHES)' $(H)/cross.sh

docs:
	@$(H)/docs.sh

bench:
	@$(H)/bench.sh

profile:
	@MODE='$(MODE)' $(H)/profile.sh

clean-cache:
	rm -rf $${HARNESS_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/hist-harness}
