package org.apache.hadoop.mapreduce.task.reduce;

import java.io.IOException;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;

/**
 * Runs a user reduce function (partial reducer or combiner) over sorted records, grouping keys
 * exactly as Hadoop groups them for a combiner
 * ({@code mapreduce.job.combiner.group.comparator.class}, else the sort comparator).
 */
abstract class GroupedReducerRunner<K, V> implements RecordReducer<K, V> {
  protected final JobConf job;
  protected final Class<?> reducerClass;
  protected final Reporter reporter;
  private final TaskAttemptID reduceId;

  GroupedReducerRunner(JobConf job, Class<?> reducerClass, TaskAttemptID reduceId,
      Reporter reporter) {
    this.job = job;
    this.reducerClass = reducerClass;
    this.reduceId = reduceId;
    this.reporter = reporter;
  }

  /** A runner for a new-API or old-API reducer class. */
  static <K, V> GroupedReducerRunner<K, V> forClass(JobConf job, Class<?> reducerClass,
      boolean newApi, TaskAttemptID reduceId, Reporter reporter) {
    return newApi ? new NewApiReducerRunner<>(job, reducerClass, reduceId, reporter)
        : new OldApiReducerRunner<>(job, reducerClass, reduceId, reporter);
  }

  String reducerName() {
    return reducerClass.getName();
  }

  @SuppressWarnings("unchecked")
  protected ReduceContextImpl<K, V, K, V> groupedInput(RawKeyValueIterator sorted,
      RunWriter<K, V> out) throws IOException, InterruptedException {
    Counter keys = new GenericCounter();
    Counter values = new GenericCounter();
    return new ReduceContextImpl<>(job, reduceId, sorted, keys, values, new RunRecordWriter<>(out),
        null, new ReporterStatus(reporter),
        (RawComparator<K>) job.getCombinerKeyGroupingComparator(),
        (Class<K>) job.getMapOutputKeyClass(), (Class<V>) job.getMapOutputValueClass());
  }

  /** Sends the reducer's output to the run being written. */
  private static final class RunRecordWriter<K, V> extends RecordWriter<K, V> {
    private final RunWriter<K, V> out;

    RunRecordWriter(RunWriter<K, V> out) {
      this.out = out;
    }

    @Override
    public void write(K key, V value) throws IOException {
      out.append(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {
      // The run is committed by its invocation, not by the reducer.
    }
  }

  /** Lets the user function report progress and counters through the task's reporter. */
  private static final class ReporterStatus extends StatusReporter {
    private final Reporter reporter;

    ReporterStatus(Reporter reporter) {
      this.reporter = reporter;
    }

    @Override
    public Counter getCounter(Enum<?> name) {
      return reporter.getCounter(name);
    }

    @Override
    public Counter getCounter(String group, String name) {
      return reporter.getCounter(group, name);
    }

    @Override
    public void progress() {
      reporter.progress();
    }

    @Override
    public float getProgress() {
      return reporter.getProgress();
    }

    @Override
    public void setStatus(String status) {
      reporter.setStatus(status);
    }
  }
}
