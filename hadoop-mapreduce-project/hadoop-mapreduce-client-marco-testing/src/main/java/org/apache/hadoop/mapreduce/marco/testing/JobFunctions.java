/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.ReduceContext;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.apache.hadoop.mapreduce.marco.PartialReducerSpec;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.Progress;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Runs a configured job's map, combine, partial-reduce and reduce functions in-process through
 * Hadoop's own map and reduce contexts: records are serialized between stages, grouped with the
 * job's comparators and handed to reducers as reused value objects, as in a real task. Values of
 * a key arrive in a random order (shuffled before a stable sort), as they do from the network.
 *
 * <p>Whatever the partial reducer emits is held to the contract the MaRCO runtime enforces: the
 * map-output key and value classes, only keys of the group it was called with, in sort order.
 * A breach is an {@link AssertionError} that names the rule. For jobs written against the
 * {@code org.apache.hadoop.mapreduce} API with {@code Writable} map outputs; an old-API job is
 * checked end to end with {@link DifferentialRun}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class JobFunctions {
  /** A serialized intermediate (map-output) record. */
  public record Record(byte[] key, byte[] value) {}

  private final Job job;
  private final Configuration conf;
  private final Class<?> mapKeyClass;
  private final Class<?> mapValueClass;

  /** @param job a configured job; its mapper, combiner, partial reducer and reducer are run */
  public JobFunctions(Job job) {
    this.job = job;
    this.conf = job.getConfiguration();
    this.mapKeyClass = job.getMapOutputKeyClass();
    this.mapValueClass = job.getMapOutputValueClass();
  }

  /** The job's configuration. */
  public Configuration conf() {
    return conf;
  }

  /** The job's class name of its partial reducer, or null when it declares none. */
  public String partialReducerName() {
    Class<? extends Reducer> cls = partialReducerClass();
    return cls == null ? null : cls.getName();
  }

  public boolean hasCombiner() {
    return job.getConfiguration().get("mapreduce.job.combine.class") != null;
  }

  /** Runs the mapper over (key, value) input pairs. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public List<Record> map(List<? extends Writable[]> input) throws Exception {
    Mapper mapper = ReflectionUtils.newInstance(job.getMapperClass(), conf);
    List<Record> out = new ArrayList<>();
    MapContextImpl context =
        new MapContextImpl(
            conf,
            attempt(TaskType.MAP),
            reader(input),
            collector(out, null),
            null,
            new TaskAttemptContextImpl.DummyReporter(),
            (InputSplit) null);
    mapper.run(new WrappedMapper().getMapContext(context));
    return out;
  }

  /** Runs the job's combiner over map-output records, as a map task's spill would. */
  public List<Record> combine(List<Record> mapOutput, Random order) throws Exception {
    return reduceToRecords(job.getCombinerClass(), mapOutput, order, false);
  }

  /**
   * Runs the job's partial reducer (declared, or its combiner when the job says so) over
   * map-output records, checking its output against the contract.
   *
   * @throws IllegalStateException when the job declares no partial reducer, or an old-API one
   */
  public List<Record> partialReduce(List<Record> records, Random order) throws Exception {
    Class<? extends Reducer> cls = partialReducerClass();
    if (cls == null) {
      throw new IllegalStateException(
          "Job "
              + job.getJobName()
              + " declares no partial reducer"
              + " (mapreduce.marco.partial.reducer.class); nothing to check.");
    }
    return reduceToRecords(cls, records, order, true);
  }

  /** The final reducer's output as the lines TextOutputFormat would print. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public List<String> reduce(List<Record> records, Random order) throws Exception {
    List<String> lines = new ArrayList<>();
    RecordWriter writer =
        new RecordWriter() {
          @Override
          public void write(Object key, Object value) {
            lines.add(value instanceof NullWritable ? key.toString() : key + "\t" + value);
          }

          @Override
          public void close(TaskAttemptContext context) {}
        };
    runReducer(
        job.getReducerClass(),
        records,
        order,
        context -> writer,
        (RawComparator) job.getGroupingComparator());
    return lines;
  }

  /** Map-output records as "key TAB value" strings, for assertions and messages. */
  public List<String> show(List<Record> records) throws IOException {
    List<String> shown = new ArrayList<>();
    for (Record r : records) {
      shown.add(read(r.key(), mapKeyClass) + "\t" + read(r.value(), mapValueClass));
    }
    return shown;
  }

  @SuppressWarnings("unchecked")
  private Class<? extends Reducer> partialReducerClass() {
    JobConf jobConf = new JobConf(conf);
    PartialReducerSpec spec = PartialReducerSpec.resolve(jobConf, MarcoSettings.from(jobConf));
    if (spec == null) {
      return null;
    }
    if (!spec.isNewApi()) {
      throw new IllegalStateException(
          "Partial reducer "
              + spec.getReducerClass().getName()
              + " is an old-API (org.apache.hadoop.mapred) reducer; JobFunctions runs new-API ones."
              + " Check an old-API job end to end with DifferentialRun.");
    }
    return (Class<? extends Reducer>) spec.getReducerClass();
  }

  /** Combiner and partial reducer: output is again map-output records, of the same types. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private List<Record> reduceToRecords(
      Class<? extends Reducer> cls, List<Record> records, Random order, boolean partial)
      throws Exception {
    List<Record> out = new ArrayList<>();
    RawComparator grouping = (RawComparator) job.getCombinerKeyGroupingComparator();
    runReducer(
        cls,
        records,
        order,
        context -> collector(out, partial ? new ContractCheck(cls, context, grouping) : null),
        grouping);
    return out;
  }

  /** The writer a reducer's context writes to, made once the context exists. */
  @FunctionalInterface
  private interface WriterForContext {
    @SuppressWarnings("rawtypes")
    RecordWriter make(ReduceContext context);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void runReducer(
      Class<? extends Reducer> cls,
      List<Record> records,
      Random order,
      WriterForContext writerForContext,
      RawComparator grouping)
      throws Exception {
    Configuration runConf = new Configuration(conf);
    // Side outputs (k-means' centroids) go to a fresh directory per run, removed afterwards.
    File sideOutputs = Files.createTempDirectory("job-functions").toFile();
    try {
      runConf.set(FileOutputFormat.OUTDIR, sideOutputs.toURI().toString());
      Reducer reducer = ReflectionUtils.newInstance(cls, runConf);
      List<Record> sorted = new ArrayList<>(records);
      Collections.shuffle(sorted, order);
      RawComparator sort = (RawComparator) job.getSortComparator();
      sorted.sort((a, b) -> sort.compare(a.key(), 0, a.key().length, b.key(), 0, b.key().length));
      DeferredWriter writer = new DeferredWriter();
      ReduceContextImpl context =
          new ReduceContextImpl(
              runConf,
              attempt(TaskType.REDUCE),
              iterator(sorted),
              new GenericCounter(),
              new GenericCounter(),
              writer,
              null,
              new TaskAttemptContextImpl.DummyReporter(),
              grouping,
              mapKeyClass,
              mapValueClass);
      writer.target = writerForContext.make(context);
      reducer.run(new WrappedReducer().getReducerContext(context));
    } finally {
      FileUtil.fullyDelete(sideOutputs);
    }
  }

  /** A writer whose target needs the context it is handed to. */
  @SuppressWarnings({"rawtypes", "unchecked"})
  private static final class DeferredWriter extends RecordWriter {
    private RecordWriter target;

    @Override
    public void write(Object key, Object value) throws IOException, InterruptedException {
      target.write(key, value);
    }

    @Override
    public void close(TaskAttemptContext context) {}
  }

  /**
   * The partial-reducer contract for each emitted record: the map-output types, a key of the
   * group being reduced, never before the previous emitted key.
   */
  @SuppressWarnings("rawtypes")
  private final class ContractCheck {
    private final Class<?> reducer;
    private final ReduceContext context;
    private final RawComparator grouping;
    private final RawComparator sort;
    private byte[] previous;

    ContractCheck(Class<?> reducer, ReduceContext context, RawComparator grouping) {
      this.reducer = reducer;
      this.context = context;
      this.grouping = grouping;
      this.sort = (RawComparator) job.getSortComparator();
    }

    @SuppressWarnings("unchecked")
    void check(Object key, Object value, byte[] keyBytes) throws IOException, InterruptedException {
      String who = "Partial reducer " + reducer.getName();
      if (key.getClass() != mapKeyClass || value.getClass() != mapValueClass) {
        throw new AssertionError(
            who
                + " emitted ("
                + key.getClass().getName()
                + ", "
                + value.getClass().getName()
                + "); it must emit the map-output types ("
                + mapKeyClass.getName()
                + ", "
                + mapValueClass.getName()
                + ").");
      }
      byte[] group = bytes((Writable) context.getCurrentKey());
      if (grouping.compare(keyBytes, 0, keyBytes.length, group, 0, group.length) != 0) {
        throw new AssertionError(
            who
                + " emitted key '"
                + key
                + "' while reducing the group of"
                + " key '"
                + context.getCurrentKey()
                + "'; it must emit only keys of the group it"
                + " was called with.");
      }
      if (previous != null
          && sort.compare(previous, 0, previous.length, keyBytes, 0, keyBytes.length) > 0) {
        throw new AssertionError(
            who
                + " emitted key '"
                + key
                + "' after key '"
                + read(previous, mapKeyClass)
                + "'; it must emit keys in sort order.");
      }
      previous = keyBytes;
    }
  }

  /** Collects serialized records of the map-output types; a partial reducer's are checked. */
  @SuppressWarnings("rawtypes")
  private RecordWriter collector(List<Record> out, ContractCheck contract) {
    return new RecordWriter() {
      @Override
      public void write(Object key, Object value) throws IOException, InterruptedException {
        if (contract == null
            && (key.getClass() != mapKeyClass || value.getClass() != mapValueClass)) {
          throw new AssertionError(
              "emitted ("
                  + key.getClass().getName()
                  + ", "
                  + value.getClass().getName()
                  + ") where the map-output types are ("
                  + mapKeyClass.getName()
                  + ", "
                  + mapValueClass.getName()
                  + ")");
        }
        byte[] keyBytes = bytes((Writable) key);
        if (contract != null) {
          contract.check(key, value, keyBytes);
        }
        out.add(new Record(keyBytes, bytes((Writable) value)));
      }

      @Override
      public void close(TaskAttemptContext context) {}
    };
  }

  /** The bytes {@code w} serializes to. */
  public static byte[] bytes(Writable w) throws IOException {
    DataOutputBuffer buffer = new DataOutputBuffer();
    w.write(buffer);
    return Arrays.copyOf(buffer.getData(), buffer.getLength());
  }

  private Writable read(byte[] bytes, Class<?> cls) throws IOException {
    Writable w = (Writable) ReflectionUtils.newInstance(cls, conf);
    DataInputBuffer in = new DataInputBuffer();
    in.reset(bytes, bytes.length);
    w.readFields(in);
    return w;
  }

  private static TaskAttemptID attempt(TaskType type) {
    return new TaskAttemptID("jobfunctions", 1, type, 0, 0);
  }

  @SuppressWarnings("rawtypes")
  private static RecordReader reader(List<? extends Writable[]> input) {
    Iterator<? extends Writable[]> it = input.iterator();
    return new RecordReader() {
      private Writable[] current;

      @Override
      public void initialize(InputSplit split, TaskAttemptContext context) {}

      @Override
      public boolean nextKeyValue() {
        current = it.hasNext() ? it.next() : null;
        return current != null;
      }

      @Override
      public Object getCurrentKey() {
        return current[0];
      }

      @Override
      public Object getCurrentValue() {
        return current[1];
      }

      @Override
      public float getProgress() {
        return 0;
      }

      @Override
      public void close() {}
    };
  }

  private static RawKeyValueIterator iterator(List<Record> sorted) {
    Iterator<Record> it = sorted.iterator();
    DataInputBuffer key = new DataInputBuffer();
    DataInputBuffer value = new DataInputBuffer();
    return new RawKeyValueIterator() {
      @Override
      public DataInputBuffer getKey() {
        return key;
      }

      @Override
      public DataInputBuffer getValue() {
        return value;
      }

      @Override
      public boolean next() {
        if (!it.hasNext()) {
          return false;
        }
        Record r = it.next();
        key.reset(r.key(), r.key().length);
        value.reset(r.value(), r.value().length);
        return true;
      }

      @Override
      public void close() {}

      @Override
      public Progress getProgress() {
        return new Progress();
      }
    };
  }
}
