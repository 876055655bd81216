package org.apache.hadoop.marco.benchmarks;

import static org.junit.Assert.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.counters.GenericCounter;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
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
 */
final class JobFunctions {
  /** A serialized intermediate record. */
  record Record(byte[] key, byte[] value) {
  }

  private final Job job;
  private final Configuration conf;
  private final Class<?> mapKeyClass;
  private final Class<?> mapValueClass;

  JobFunctions(Job job) {
    this.job = job;
    this.conf = job.getConfiguration();
    this.mapKeyClass = job.getMapOutputKeyClass();
    this.mapValueClass = job.getMapOutputValueClass();
  }

  /** The functions of {@code tool}'s job as configured for {@code conf}. */
  static JobFunctions of(BenchmarkJob tool, Configuration conf) throws IOException {
    return new JobFunctions(tool.createJob(conf, new org.apache.hadoop.fs.Path("in"),
        new org.apache.hadoop.fs.Path("out")));
  }

  Configuration conf() {
    return conf;
  }

  boolean hasCombiner() {
    return job.getConfiguration().get("mapreduce.job.combine.class") != null;
  }

  /** Runs the mapper over (key, value) input pairs. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  List<Record> map(List<? extends Writable[]> input) throws Exception {
    Mapper mapper = ReflectionUtils.newInstance(job.getMapperClass(), conf);
    List<Record> out = new ArrayList<>();
    MapContextImpl context = new MapContextImpl(conf, attempt(TaskType.MAP), reader(input),
        collector(out, true), null, new TaskAttemptContextImpl.DummyReporter(), (InputSplit) null);
    mapper.run(new WrappedMapper().getMapContext(context));
    return out;
  }

  List<Record> combine(List<Record> mapOutput, Random order) throws Exception {
    return reduceToRecords(job.getCombinerClass(), mapOutput, order);
  }

  List<Record> partialReduce(List<Record> records, Random order) throws Exception {
    return reduceToRecords(conf.getClass(MarcoConfig.PARTIAL_REDUCER_CLASS, null, Reducer.class),
        records, order);
  }

  /** The final reducer's output as the lines TextOutputFormat would print. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  List<String> reduce(List<Record> records, Random order) throws Exception {
    List<String> lines = new ArrayList<>();
    RecordWriter writer = new RecordWriter() {
      @Override
      public void write(Object key, Object value) {
        lines.add(value instanceof NullWritable ? key.toString() : key + "\t" + value);
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
    runReducer(job.getReducerClass(), records, order, writer,
        (RawComparator) job.getGroupingComparator());
    return lines;
  }

  /** Combiner and partial reducer: output is again map-output records, of the same types. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private List<Record> reduceToRecords(Class<? extends Reducer> cls, List<Record> records,
      Random order) throws Exception {
    List<Record> out = new ArrayList<>();
    runReducer(cls, records, order, collector(out, true),
        (RawComparator) job.getCombinerKeyGroupingComparator());
    return out;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void runReducer(Class<? extends Reducer> cls, List<Record> records, Random order,
      RecordWriter writer, RawComparator grouping) throws Exception {
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
      ReduceContextImpl context = new ReduceContextImpl(runConf, attempt(TaskType.REDUCE),
          iterator(sorted), new GenericCounter(), new GenericCounter(), writer, null,
          new TaskAttemptContextImpl.DummyReporter(), grouping, mapKeyClass, mapValueClass);
      reducer.run(new WrappedReducer().getReducerContext(context));
    } finally {
      FileUtil.fullyDelete(sideOutputs);
    }
  }

  /** Collects serialized records, checking they have the map-output types. */
  @SuppressWarnings("rawtypes")
  private RecordWriter collector(List<Record> out, boolean mapOutputTypes) {
    return new RecordWriter() {
      @Override
      public void write(Object key, Object value) throws IOException {
        if (mapOutputTypes) {
          assertEquals("key type", mapKeyClass, key.getClass());
          assertEquals("value type", mapValueClass, value.getClass());
        }
        out.add(new Record(bytes((Writable) key), bytes((Writable) value)));
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
  }

  static byte[] bytes(Writable w) throws IOException {
    DataOutputBuffer buffer = new DataOutputBuffer();
    w.write(buffer);
    return Arrays.copyOf(buffer.getData(), buffer.getLength());
  }

  /** Map-output records as "key TAB value" strings, for assertions. */
  List<String> show(List<Record> records) throws IOException {
    List<String> shown = new ArrayList<>();
    for (Record r : records) {
      shown.add(read(r.key(), mapKeyClass) + "\t" + read(r.value(), mapValueClass));
    }
    return shown;
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
      public void initialize(InputSplit split, TaskAttemptContext context) {
      }

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
      public void close() {
      }
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
      public void close() {
      }

      @Override
      public Progress getProgress() {
        return new Progress();
      }
    };
  }
}
