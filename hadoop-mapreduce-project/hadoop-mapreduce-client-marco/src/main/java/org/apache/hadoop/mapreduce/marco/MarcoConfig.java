/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Every {@code mapreduce.marco.*} configuration key, each with its {@code DEFAULT_} twin.
 *
 * <p>The paper's names are given where a key implements one of its knobs (MaRCO, Purdue
 * TR-ECE-11-07, sections 3.2 and 5.2). {@link MarcoSettings} reads and validates them.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MarcoConfig {
  private MarcoConfig() {}

  public static final String PREFIX = "mapreduce.marco.";

  /**
   * Every key below with its default and description, in the engine's jar, as Hadoop ships
   * {@code mapred-default.xml}. It is a reference and is not loaded: a default resource added
   * after Hadoop's would override the cluster's {@code mapred-site.xml}. The defaults in force
   * are the {@code DEFAULT_} constants, which a test keeps equal to the file's values.
   */
  public static final String MARCO_DEFAULT_XML = "marco-default.xml";

  /** The shuffle consumer plugin to name in {@code mapreduce.job.reduce.shuffle.consumer.plugin.class}. */
  public static final String SHUFFLE_PLUGIN_CLASS =
      "org.apache.hadoop.mapreduce.task.reduce.MarcoShuffle";

  /** Master switch: false makes the plugin behave exactly as Hadoop's stock shuffle. */
  public static final String ENABLED = PREFIX + "enabled";

  public static final boolean DEFAULT_ENABLED = true;

  /** The partial reducer: a new-API {@code Reducer<K,V,K,V>} or an old-API {@code mapred.Reducer}. */
  public static final String PARTIAL_REDUCER_CLASS = PREFIX + "partial.reducer.class";

  /** Use the job's combiner as the partial reducer when no partial reducer is declared. */
  public static final String PARTIAL_REDUCER_USE_COMBINER = PREFIX + "partial.reducer.use-combiner";

  public static final boolean DEFAULT_PARTIAL_REDUCER_USE_COMBINER = false;

  /** Partial-reduce switch: false gives the paper's MaRCO-no-partial-reduce (partial sort only). */
  public static final String PARTIAL_REDUCE_ENABLED = PREFIX + "partial.reduce.enabled";

  public static final boolean DEFAULT_PARTIAL_REDUCE_ENABLED = true;

  /**
   * Fail the reduce attempt when the partial reducer breaks its contract, instead of leaving that
   * invocation's inputs to the final merge and going on without partial reduce.
   */
  public static final String PARTIAL_CONTRACT_STRICT = PREFIX + "partial.contract.strict";

  public static final boolean DEFAULT_PARTIAL_CONTRACT_STRICT = false;

  /**
   * A fetch that finds the shuffle memory over its limit writes its map output to local disk
   * instead of waiting for a memory spill, so the link across the bisection never idles for
   * memory; false keeps Hadoop's behaviour (the fetcher WAITs).
   */
  public static final String FETCH_TO_DISK_WHEN_FULL = PREFIX + "fetch.to.disk.when.full";

  public static final boolean DEFAULT_FETCH_TO_DISK_WHEN_FULL = true;

  /** The paper's start_threshold for the first invocations: unprocessed map outputs needed. */
  public static final String START_THRESHOLD_INITIAL = PREFIX + "start.threshold.initial";

  public static final int DEFAULT_START_THRESHOLD_INITIAL = 4;

  /** How many invocations use {@link #START_THRESHOLD_INITIAL} before {@link #START_THRESHOLD}. */
  public static final String START_THRESHOLD_INITIAL_INVOCATIONS =
      PREFIX + "start.threshold.initial.invocations";

  public static final int DEFAULT_START_THRESHOLD_INITIAL_INVOCATIONS = 2;

  /** The paper's start_threshold after the initial invocations. */
  public static final String START_THRESHOLD = PREFIX + "start.threshold";

  public static final int DEFAULT_START_THRESHOLD = 8;

  /**
   * The paper's stop_fraction: no new invocation once this fraction of map outputs has arrived.
   * The paper's 0.9 keeps a late invocation from delaying the final merge, as its running
   * invocations finish. Here invocations are bounded ({@link #INVOCATION_MAX_BYTES}), so one still
   * running at shuffle end holds little, and finishes at the container's share; the default is
   * 1.0: partial work goes on through the shuffle's tail.
   */
  public static final String STOP_FRACTION = PREFIX + "stop.fraction";

  public static final float DEFAULT_STOP_FRACTION = 1.0f;

  /**
   * Beyond the paper: a start threshold that the map outputs still to come before the stop point
   * cannot reach no longer holds back those waiting. They start an invocation at once, when the
   * shuffle's tail leaves the CPU to partial work, instead of idling the partial thread and going
   * raw to the final merge. Part of control: without it the threshold is 1 anyway.
   */
  public static final String START_WHEN_THRESHOLD_UNREACHABLE =
      PREFIX + "start.when.threshold.unreachable";

  public static final boolean DEFAULT_START_WHEN_THRESHOLD_UNREACHABLE = true;

  /**
   * Beyond the paper: a start threshold reached too late to be worth waiting for no longer holds
   * back the map outputs waiting. Once every map has completed (the rest of the shuffle waits
   * for the network) and an invocation has finished, the finish forecast ({@link
   * #START_ONLY_WITHIN_SHUFFLE}) says when the arrivals the threshold still needs would come and
   * how long a batch of that many map outputs would take; where that batch would end after the
   * shuffle, those waiting start an invocation now. Without it, a threshold that the last
   * arrivals just reach keeps the partial thread idle through the shuffle's tail, and the batch,
   * formed a few seconds before the shuffle ends, is held back or abandoned, its map outputs
   * going raw to the final merge. Where partial work is cheap against the arrivals' pace the
   * batch fits and nothing changes. Part of control: without it the threshold is 1 anyway.
   */
  public static final String START_WHEN_THRESHOLD_LATE = PREFIX + "start.when.threshold.late";

  public static final boolean DEFAULT_START_WHEN_THRESHOLD_LATE = true;

  /**
   * Beyond the paper: once every map of the job has completed, a waiting map output starts an
   * invocation whatever the start threshold says. The threshold batches map outputs while the
   * maps need the CPU; after them, the rest of the shuffle only waits for the network, and a batch
   * gathered then keeps the partial thread idle while it forms and is still running when the last
   * map output arrives, so that the final merge waits for it. The reduce learns that the maps have
   * completed from the map-completion events its shuffle fetches anyway. Off by default: measured,
   * it removed that wait without moving wall times beyond their spread, and where a combiner has
   * already reduced each map output an invocation of one map output reduces nothing. Part of
   * control: without it the threshold is 1 anyway.
   */
  public static final String START_WHEN_MAPS_COMPLETE = PREFIX + "start.when.maps.complete";

  public static final boolean DEFAULT_START_WHEN_MAPS_COMPLETE = false;

  /**
   * Start no partial invocation that is forecast to end after the shuffle: its input at the rate
   * the finished invocations worked through theirs takes longer than the map outputs still to
   * come at the mean interval of the latest arrivals. Such an invocation would keep the final
   * merge waiting or be abandoned with its work lost. An invocation takes, oldest first, only the
   * map outputs forecast to be worked through in time; where not even the oldest is, none starts
   * and they go to the final merge as they are. With no forecast yet (before an invocation has finished) every invocation may
   * start. On by default: it only ever withholds partial work, so at worst it hides less; with a
   * partial reducer slower than the shuffle it keeps the final merge from waiting on it. Part of
   * control: off without it, and off with {@link #FINISH_ALL_AT_SHUFFLE_END}, which waits for
   * every invocation by choice.
   */
  public static final String START_ONLY_WITHIN_SHUFFLE = PREFIX + "start.only.within.shuffle";

  public static final boolean DEFAULT_START_ONLY_WITHIN_SHUFFLE = true;

  /**
   * The most raw bytes of map output one partial invocation takes; it always takes at least one
   * run. A bounded invocation commits soon: when the shuffle ends, the work of those before the
   * running one is kept, and an invocation starved by the maps holds few inputs. Once this many
   * bytes wait, an invocation starts whatever the start threshold says. 0: no bound (the paper's
   * invocations take every waiting run, up to {@code mapreduce.task.io.sort.factor}). Part of
   * control: no bound without it.
   */
  public static final String INVOCATION_MAX_BYTES = PREFIX + "invocation.max.bytes";

  public static final long DEFAULT_INVOCATION_MAX_BYTES = 32L * 1024 * 1024;

  /** Partial sort/reduce threads per reduce task. */
  public static final String PARTIAL_THREADS = PREFIX + "partial.threads";

  public static final int DEFAULT_PARTIAL_THREADS = 1;

  /** Linux nice value of partial threads (0..19); the paper runs them at low priority. */
  public static final String PARTIAL_NICE = PREFIX + "partial.nice";

  public static final int DEFAULT_PARTIAL_NICE = 19;

  /**
   * A cpu cgroup directory that partial threads join when they start, so that they only get CPU
   * the containers leave idle: cgroup v1 (e.g. /sys/fs/cgroup/cpu/marco-partial, cpu.shares=2), or
   * a threaded cgroup v2 child of {@link #SHUFFLE_CPU_CGROUP} (v2 moves a single thread only
   * within its process's threaded subtree). Nice ranks a thread only within its own scheduling
   * group, and YARN gives every container a group of its own (its cgroup under the
   * LinuxContainerExecutor with cgroups; its session's autogroup under the default executor when
   * kernel.sched_autogroup_enabled=1): there a reduce's nice-19 partial threads get a whole
   * container's share against the maps. A relative path (e.g. {@code marco-partial}) names a
   * child of the cpu cgroup the reduce JVM is in when its first partial thread starts, so that
   * partial work yields to the containers of its own node only, where each node's containers
   * share a cgroup of their own. Empty: nice only. Part of control: unused without it.
   */
  public static final String PARTIAL_CPU_CGROUP = PREFIX + "partial.cpu.cgroup";

  public static final String DEFAULT_PARTIAL_CPU_CGROUP = "";

  /**
   * A cpu cgroup directory, v1 or v2 (e.g. /sys/fs/cgroup/cpu/marco-shuffle, cpu.shares=128), that
   * the whole reduce JVM joins while it shuffles and leaves when the last map output arrives, back
   * to the cgroup it came from, before the final merge. A reduce starts with the first map, and its fetchers,
   * merges and spills would otherwise take a container's share from the maps. Empty: none. Part
   * of control: unused without it.
   */
  public static final String SHUFFLE_CPU_CGROUP = PREFIX + "shuffle.cpu.cgroup";

  public static final String DEFAULT_SHUFFLE_CPU_CGROUP = "";

  /**
   * JVM options the distribution's AppMaster ({@code MarcoMRAppMaster}) adds to the command line
   * of a MaRCO job's reduces, in front of the job's own ({@code
   * mapreduce.admin.reduce.child.java.opts} gets them), so that a job's {@code
   * mapreduce.reduce.java.opts} still overrides them. The default turns off HotSpot's periodic
   * cleanup safepoints: a safepoint stops every thread of the JVM until the last one reaches it,
   * and a partial thread at a low share that the scheduler has put aside while it ran Java code
   * reaches it only when it next gets the CPU, seconds later on a busy node. Every fetcher of the
   * reduce waits that long. {@code none} (or empty): none. Part of control: none without it
   * (partial threads then run at the container's share).
   */
  public static final String REDUCE_JVM_OPTIONS = PREFIX + "reduce.jvm.options";

  public static final String DEFAULT_REDUCE_JVM_OPTIONS =
      "-XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0";

  /**
   * Control switch. False gives the paper's MaRCO-no-control: threshold 1, stop fraction 1.0,
   * normal priority, whatever the keys above say.
   */
  public static final String CONTROL_ENABLED = PREFIX + "control.enabled";

  public static final boolean DEFAULT_CONTROL_ENABLED = true;

  /**
   * Abandon every partial invocation still running when the last map output has arrived: the
   * final merge takes its inputs as they are at once, without waiting for the thread to stop.
   * False (the default): a running invocation finishes first, at the container's share, while it
   * is worth the wait (it has read more of its input than it keeps of it), and is abandoned
   * otherwise; a partial reducer whose cost grows faster than its input then keeps the work it
   * had done. Part of control: off without it.
   */
  public static final String ABANDON_AT_SHUFFLE_END = PREFIX + "abandon.at.shuffle.end";

  public static final boolean DEFAULT_ABANDON_AT_SHUFFLE_END = false;

  /**
   * Finish every partial invocation still running when the last map output has arrived, as the
   * paper does, whatever the wait costs. False (the default): the final merge waits only for work
   * worth the wait (see {@link #ABANDON_AT_SHUFFLE_END}), so that a partial reducer too expensive
   * for what it saves cannot make a job slower than stock. Without control every running
   * invocation finishes. Exclusive with {@link #ABANDON_AT_SHUFFLE_END}.
   */
  public static final String FINISH_ALL_AT_SHUFFLE_END = PREFIX + "finish.all.at.shuffle.end";

  public static final boolean DEFAULT_FINISH_ALL_AT_SHUFFLE_END = false;

  /**
   * The share of the heap above which partial work backs off: no invocation starts, and a running
   * one hands its inputs back untouched. Counted is the heap in use after the latest collection of
   * any kind plus the shuffle memory still to reserve. Stock Hadoop runs the reducer only after
   * the shuffle has freed its buffers; a partial reducer runs next to them, so it must not take
   * the heap they need. A fraction in (0, 1]; 1 turns the guard off. Not part of control: it
   * guards the attempt, not the speed.
   */
  public static final String PARTIAL_HEAP_LIMIT_PERCENT = PREFIX + "partial.heap.limit.percent";

  public static final float DEFAULT_PARTIAL_HEAP_LIMIT_PERCENT = 0.85f;

  /** Adaptive control (beyond the paper): stop partial reduce when it does not reduce. */
  public static final String ADAPTIVE_ENABLED = PREFIX + "adaptive.enabled";

  public static final boolean DEFAULT_ADAPTIVE_ENABLED = true;

  /** Output records / input records at or above which an invocation counts as not reducing. */
  public static final String ADAPTIVE_RATIO_THRESHOLD = PREFIX + "adaptive.ratio.threshold";

  public static final float DEFAULT_ADAPTIVE_RATIO_THRESHOLD = 0.8f;

  /** Consecutive non-reducing invocations after which partial reduce is switched off. */
  public static final String ADAPTIVE_MIN_INVOCATIONS = PREFIX + "adaptive.min.invocations";

  public static final int DEFAULT_ADAPTIVE_MIN_INVOCATIONS = 2;

  /**
   * Where each reduce attempt writes its event timeline (a Hadoop path, one JSON-lines file per
   * attempt under {@code <dir>/<job id>/}). Empty: the attempt's container log directory only.
   */
  public static final String TIMELINE_DIR = PREFIX + "timeline.dir";

  public static final String DEFAULT_TIMELINE_DIR = "";

  /** Fault injection for tests: the k-th partial invocation (1-based) of each reduce throws; 0 = off. */
  public static final String TEST_FAIL_INVOCATION = PREFIX + "test.fail.invocation";

  public static final int DEFAULT_TEST_FAIL_INVOCATION = 0;

  /** Reduce staggering (AM side): switch. */
  public static final String STAGGER_ENABLED = PREFIX + "stagger.enabled";

  public static final boolean DEFAULT_STAGGER_ENABLED = true;

  /** Reduce staggering: reduce tasks per node allowed to start while maps still run. */
  public static final String STAGGER_REDUCES_PER_NODE = PREFIX + "stagger.reduces.per.node";

  public static final int DEFAULT_STAGGER_REDUCES_PER_NODE = 1;

  /**
   * Reduce staggering: how many of the NodeManagers the RM counts cannot run the job's tasks, e.g.
   * the nodes of a node-label partition kept for AppMasters. The AM asks for at most {@link
   * #STAGGER_REDUCES_PER_NODE} early reduces per node of the RM's count minus these; counting a
   * node no reduce can reach would leave a reduce ask open that every node with room answers, and
   * reduces outrank maps at the RM, so that ask would take the room of waiting maps.
   */
  public static final String STAGGER_NON_TASK_NODES = PREFIX + "stagger.non.task.nodes";

  public static final int DEFAULT_STAGGER_NON_TASK_NODES = 0;

  /**
   * Reduce staggering: while maps run, ask for every early reduce the per-node cap allows at once,
   * as soon as the slow-start in force is reached and a map has completed, instead of Hadoop's
   * ramp-up, which grants reduces room only in proportion to the maps completed. Reduces outrank
   * maps at the RM, so each node's first freed room then goes to its reduce; with the ramp-up, a
   * node whose first maps end before the asks go out gives that room to maps, and its reduce, with
   * its share of the shuffle, starts a map wave later.
   */
  public static final String STAGGER_FULL_RAMPUP = PREFIX + "stagger.full.rampup";

  public static final boolean DEFAULT_STAGGER_FULL_RAMPUP = true;

  /**
   * Reduce staggering for jobs on Hadoop's own shuffle too: at most
   * {@link #STAGGER_REDUCES_PER_NODE} of their reduces per node while maps run, with the job's own
   * slow-start. Lets a benchmark give stock and MaRCO jobs the same reduce placement.
   */
  public static final String STAGGER_STOCK_JOBS = PREFIX + "stagger.stock.jobs";

  public static final boolean DEFAULT_STAGGER_STOCK_JOBS = false;

  /**
   * Asynchronous reduce output (the paper's Hadoop++ baseline), in force when the job's output
   * format is {@code org.apache.hadoop.mapreduce.marco.output.AsyncOutputFormat} (or its old-API
   * twin): false makes that wrapper write synchronously through its delegate.
   */
  public static final String ASYNC_OUTPUT_ENABLED = PREFIX + "async.output.enabled";

  public static final boolean DEFAULT_ASYNC_OUTPUT_ENABLED = true;

  /**
   * The output format the asynchronous wrapper writes through: a new-API
   * {@code mapreduce.OutputFormat} for {@code AsyncOutputFormat}, an old-API
   * {@code mapred.OutputFormat} for {@code AsyncMapredOutputFormat}. Empty: the API's
   * {@code TextOutputFormat}, Hadoop's default.
   */
  public static final String ASYNC_OUTPUT_DELEGATE_CLASS = PREFIX + "async.output.delegate.class";

  /**
   * Bytes of serialized records the reducer may be ahead of the background writer: a byte size
   * with Hadoop's suffixes ({@code 64m}).
   */
  public static final String ASYNC_OUTPUT_BUFFER_BYTES = PREFIX + "async.output.buffer.bytes";

  public static final int DEFAULT_ASYNC_OUTPUT_BUFFER_BYTES = 8 * 1024 * 1024;
}
