/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Reducer;
import org.junit.Test;

/** Validation of every mapreduce.marco.* key and of the declared partial reducer. */
public class TestMarcoSettings {

  /** Sums into a LongWritable while the map output value is an IntWritable: wrong types. */
  public static class WideningReducer extends Reducer<Text, IntWritable, Text, LongWritable> {}

  /** The right types. */
  public static class IntSumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {}

  /** Old API, right types. */
  public static class OldIntSum extends MapReduceBase
      implements org.apache.hadoop.mapred.Reducer<Text, IntWritable, Text, IntWritable> {
    @Override
    public void reduce(
        Text key,
        Iterator<IntWritable> values,
        OutputCollector<Text, IntWritable> output,
        Reporter reporter)
        throws IOException {}
  }

  private static String rejection(String key, String value) {
    Configuration conf = new Configuration(false);
    conf.set(key, value);
    try {
      MarcoSettings.from(conf);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    fail(key + "=" + value + " was accepted");
    return null;
  }

  @Test
  public void defaultsAreThePapersButForTheBoundAndTheStopFraction() {
    MarcoSettings s = MarcoSettings.from(new Configuration(false));
    assertEquals(4, s.startThreshold(0));
    assertEquals(4, s.startThreshold(1));
    assertEquals(8, s.startThreshold(2));
    assertEquals(8, s.startThreshold(100));
    assertEquals(1.0f, s.effectiveStopFraction(), 0f);
    assertEquals(32L << 20, s.effectiveInvocationMaxBytes());
    assertEquals(19, s.effectivePartialNice());
    assertTrue(s.isEnabled() && s.isPartialReduceEnabled() && s.isAdaptiveEnabled());
    assertFalse("running invocations finish, as in the paper", s.effectiveAbandonAtShuffleEnd());
    assertEquals("", s.effectivePartialCpuCgroup());
    assertEquals("", s.effectiveShuffleCpuCgroup());
    assertTrue(s.toString(), s.toString().contains("shuffle.cpu.cgroup=none"));
  }

  @Test
  public void theShuffleCpuCgroupIsAnAbsolutePathShownInTheSummary() {
    Configuration conf = new Configuration(false);
    conf.set(MarcoConfig.SHUFFLE_CPU_CGROUP, " /sys/fs/cgroup/cpu/mc-shuffle ");
    MarcoSettings s = MarcoSettings.from(conf);
    assertEquals("/sys/fs/cgroup/cpu/mc-shuffle", s.effectiveShuffleCpuCgroup());
    assertEquals("", s.effectivePartialCpuCgroup());
    assertTrue(
        s.toString(), s.toString().contains("shuffle.cpu.cgroup=/sys/fs/cgroup/cpu/mc-shuffle"));
    String m = rejection(MarcoConfig.SHUFFLE_CPU_CGROUP, "cpu/mc-shuffle");
    assertTrue(
        m,
        m.contains(MarcoConfig.SHUFFLE_CPU_CGROUP)
            && m.contains("'cpu/mc-shuffle'")
            && m.contains("absolute path such as /sys/fs/cgroup/cpu/marco-shuffle"));
  }

  @Test
  public void thePartialCpuCgroupMayBeBelowTheJvmsOwnButNotClimbOutOfIt() {
    Configuration conf = new Configuration(false);
    conf.set(MarcoConfig.PARTIAL_CPU_CGROUP, "mc-partial");
    assertEquals("mc-partial", MarcoSettings.from(conf).effectivePartialCpuCgroup());
    String m = rejection(MarcoConfig.PARTIAL_CPU_CGROUP, "mc-partial/../..");
    assertTrue(
        m,
        m.contains(MarcoConfig.PARTIAL_CPU_CGROUP)
            && m.contains("mc-partial/../..")
            && m.contains("one below the JVM's own cgroup"));
  }

  /** Hadoop drops a job's empty values, so "none" is how a job turns off the site's cgroups. */
  @Test
  public void noneTurnsOffTheCgroupsThatTheSiteSets() throws IOException {
    Configuration site = new Configuration(false);
    site.set(MarcoConfig.SHUFFLE_CPU_CGROUP, "/sys/fs/cgroup/cpu/mc-shuffle");
    site.set(MarcoConfig.PARTIAL_CPU_CGROUP, "/sys/fs/cgroup/cpu/mc-partial");
    Configuration job = new Configuration(false);
    job.set(MarcoConfig.SHUFFLE_CPU_CGROUP, "");
    job.set(MarcoConfig.PARTIAL_CPU_CGROUP, "None");
    // The configuration as a task reads it: the node's mapred-site.xml, then the job's job.xml.
    Configuration task = new Configuration(false);
    task.addResource(xml(site));
    task.addResource(xml(job));
    MarcoSettings s = MarcoSettings.from(task);
    assertEquals(
        "an empty value does not reach the task",
        "/sys/fs/cgroup/cpu/mc-shuffle",
        s.effectiveShuffleCpuCgroup());
    assertEquals("", s.effectivePartialCpuCgroup());
  }

  private static ByteArrayInputStream xml(Configuration conf) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    conf.writeXml(out);
    return new ByteArrayInputStream(out.toByteArray());
  }

  @Test
  public void controlOffIsThePapersMarcoNoControl() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    conf.setInt(MarcoConfig.START_THRESHOLD, 12);
    conf.set(MarcoConfig.PARTIAL_CPU_CGROUP, "/sys/fs/cgroup/cpu/marco-partial");
    conf.set(MarcoConfig.SHUFFLE_CPU_CGROUP, "/sys/fs/cgroup/cpu/marco-shuffle");
    conf.set(MarcoConfig.INVOCATION_MAX_BYTES, "32m");
    MarcoSettings s = MarcoSettings.from(conf);
    assertEquals(
        "invocations take every waiting run", Long.MAX_VALUE, s.effectiveInvocationMaxBytes());
    assertEquals(1, s.startThreshold(0));
    assertEquals(1, s.startThreshold(5));
    assertEquals(1.0f, s.effectiveStopFraction(), 0f);
    assertEquals(0, s.effectivePartialNice());
    assertEquals("normal priority: no cgroup either", "", s.effectivePartialCpuCgroup());
    assertEquals("", s.effectiveShuffleCpuCgroup());
    assertFalse("the paper's running invocations finish", s.effectiveAbandonAtShuffleEnd());
  }

  @Test
  public void invocationMaxBytesTakesHadoopSizesAndZeroMeansNoBound() {
    Configuration conf = new Configuration(false);
    conf.set(MarcoConfig.INVOCATION_MAX_BYTES, "48m");
    MarcoSettings s = MarcoSettings.from(conf);
    assertEquals(48L << 20, s.effectiveInvocationMaxBytes());
    assertTrue(s.toString(), s.toString().contains("invocation.max.bytes=48 MB"));
    conf.set(MarcoConfig.INVOCATION_MAX_BYTES, "0");
    s = MarcoSettings.from(conf);
    assertEquals(Long.MAX_VALUE, s.effectiveInvocationMaxBytes());
    assertTrue(s.toString(), s.toString().contains("invocation.max.bytes=unbounded"));
  }

  @Test
  public void badValuesNameTheKeyTheValueAndTheRange() {
    String m = rejection(MarcoConfig.STOP_FRACTION, "1.5");
    assertTrue(
        m, m.contains(MarcoConfig.STOP_FRACTION) && m.contains("'1.5'") && m.contains("(0, 1]"));
    m = rejection(MarcoConfig.STOP_FRACTION, "0");
    assertTrue(m, m.contains("(0, 1]"));
    m = rejection(MarcoConfig.START_THRESHOLD, "-1");
    assertTrue(
        m,
        m.contains(MarcoConfig.START_THRESHOLD) && m.contains("'-1'") && m.contains("[1, 100000]"));
    m = rejection(MarcoConfig.START_THRESHOLD_INITIAL, "four");
    assertTrue(m, m.contains(MarcoConfig.START_THRESHOLD_INITIAL) && m.contains("'four'"));
    m = rejection(MarcoConfig.PARTIAL_NICE, "20");
    assertTrue(m, m.contains("[0, 19]"));
    m = rejection(MarcoConfig.CONTROL_ENABLED, "maybe");
    assertTrue(m, m.contains(MarcoConfig.CONTROL_ENABLED) && m.contains("true or false"));
    m = rejection(MarcoConfig.ADAPTIVE_RATIO_THRESHOLD, "NaN");
    assertTrue(m, m.contains(MarcoConfig.ADAPTIVE_RATIO_THRESHOLD));
    m = rejection(MarcoConfig.INVOCATION_MAX_BYTES, "-1");
    assertTrue(m, m.contains(MarcoConfig.INVOCATION_MAX_BYTES) && m.contains("byte size"));
    m = rejection(MarcoConfig.INVOCATION_MAX_BYTES, "lots");
    assertTrue(m, m.contains("'lots'") && m.contains("suffix such as 64m"));
    m = rejection(MarcoConfig.PARTIAL_THREADS, "0");
    assertTrue(m, m.contains("[1, 64]"));
    m = rejection(MarcoConfig.PARTIAL_CPU_CGROUP, "../cpu/marco-partial");
    assertTrue(m, m.contains(MarcoConfig.PARTIAL_CPU_CGROUP) && m.contains("absolute path"));
  }

  private static JobConf jobWithMapOutput(Class<?> key, Class<?> value) {
    JobConf job = new JobConf(false);
    job.setMapOutputKeyClass(key);
    job.setMapOutputValueClass(value);
    return job;
  }

  @Test
  public void aPartialReducerWithOtherTypesIsRejectedNamingClassAndTypes() throws IOException {
    JobConf job = jobWithMapOutput(Text.class, IntWritable.class);
    job.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, WideningReducer.class, Reducer.class);
    try {
      PartialReducerSpec.resolve(job, MarcoSettings.from(job));
      fail("accepted");
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      assertTrue(
          m,
          m.contains(WideningReducer.class.getName())
              && m.contains("org.apache.hadoop.io.LongWritable")
              && m.contains("org.apache.hadoop.io.IntWritable"));
    }
  }

  @Test
  public void partialReducersOfBothApisResolve() {
    JobConf job = jobWithMapOutput(Text.class, IntWritable.class);
    job.setClass(MarcoConfig.PARTIAL_REDUCER_CLASS, IntSumReducer.class, Reducer.class);
    PartialReducerSpec spec = PartialReducerSpec.resolve(job, MarcoSettings.from(job));
    assertSame(IntSumReducer.class, spec.getReducerClass());
    assertTrue(spec.isNewApi());
    MarcoJob.setPartialReducerClass(job, OldIntSum.class);
    spec = PartialReducerSpec.resolve(job, MarcoSettings.from(job));
    assertSame(OldIntSum.class, spec.getReducerClass());
    assertTrue(!spec.isNewApi());
  }

  @Test
  public void theCombinerServesAsPartialReducerOnlyWhenAsked() throws IOException {
    Job job = Job.getInstance(jobWithMapOutput(Text.class, IntWritable.class));
    job.setCombinerClass(IntSumReducer.class);
    JobConf conf = new JobConf(job.getConfiguration());
    assertNull(PartialReducerSpec.resolve(conf, MarcoSettings.from(conf)));
    MarcoJob.usePartialReducerFromCombiner(conf, true);
    assertSame(
        IntSumReducer.class,
        PartialReducerSpec.resolve(conf, MarcoSettings.from(conf)).getReducerClass());
  }

  @Test
  public void anUnknownClassIsRejectedNamingTheKey() {
    JobConf job = jobWithMapOutput(Text.class, IntWritable.class);
    job.set(MarcoConfig.PARTIAL_REDUCER_CLASS, "com.example.NoSuchReducer");
    try {
      PartialReducerSpec.resolve(job, MarcoSettings.from(job));
      fail("accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(
          e.getMessage(),
          e.getMessage().contains(MarcoConfig.PARTIAL_REDUCER_CLASS)
              && e.getMessage().contains("com.example.NoSuchReducer"));
    }
  }

  @Test
  public void aClassThatIsNoReducerIsRejected() {
    JobConf job = jobWithMapOutput(Text.class, IntWritable.class);
    job.set(MarcoConfig.PARTIAL_REDUCER_CLASS, String.class.getName());
    try {
      PartialReducerSpec.resolve(job, MarcoSettings.from(job));
      fail("accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("java.lang.String"));
    }
  }

  /**
   * At shuffle end a running invocation is waited for only while worth it, by default; the paper's
   * rule (finish all) is one key away, and always so without control; abandoning and finishing
   * all at once is an error that names both keys.
   */
  @Test
  public void theShuffleEndRuleFinishesAllOnlyWhenAskedOrWithoutControl() {
    Configuration conf = new Configuration(false);
    assertFalse(MarcoSettings.from(conf).effectiveFinishAllAtShuffleEnd());
    assertFalse(MarcoSettings.from(conf).effectiveAbandonAtShuffleEnd());
    conf.setBoolean(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END, true);
    assertTrue(MarcoSettings.from(conf).effectiveFinishAllAtShuffleEnd());
    assertTrue(MarcoSettings.from(conf).toString().contains("finish.all.at.shuffle.end=true"));
    Configuration noControl = new Configuration(false);
    noControl.setBoolean(MarcoConfig.CONTROL_ENABLED, false);
    assertTrue(MarcoSettings.from(noControl).effectiveFinishAllAtShuffleEnd());
    conf.setBoolean(MarcoConfig.ABANDON_AT_SHUFFLE_END, true);
    try {
      MarcoSettings.from(conf);
      fail("abandoning and finishing all at shuffle end at once was accepted");
    } catch (IllegalArgumentException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(MarcoConfig.ABANDON_AT_SHUFFLE_END));
      assertTrue(e.getMessage(), e.getMessage().contains(MarcoConfig.FINISH_ALL_AT_SHUFFLE_END));
    }
  }
}
