/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;
import org.apache.hadoop.mapreduce.marco.MarcoSettings;
import org.junit.Test;

public class TestAsyncOutputSettings {
  @Test
  public void defaults() {
    MarcoSettings settings = MarcoSettings.from(new Configuration(false));
    assertTrue(settings.isAsyncOutputEnabled());
    assertEquals(
        MarcoConfig.DEFAULT_ASYNC_OUTPUT_BUFFER_BYTES, settings.getAsyncOutputBufferBytes());
  }

  @Test
  public void bufferBelowMinimumIsRejectedNamingTheKey() {
    Configuration conf = new Configuration(false);
    conf.setInt(MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES, 1000);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MarcoSettings.from(conf));
    assertTrue(e.getMessage(), e.getMessage().contains(MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES));
  }

  @Test
  public void switchMustBeABoolean() {
    Configuration conf = new Configuration(false);
    conf.set(MarcoConfig.ASYNC_OUTPUT_ENABLED, "yes");
    assertThrows(IllegalArgumentException.class, () -> MarcoSettings.from(conf));
  }

  @Test
  public void enableKeepsTheJobsFormatAsDelegateAndIsIdempotent() throws Exception {
    Job job = Job.getInstance(new Configuration(false));
    AsyncOutput.enable(job);
    assertEquals(AsyncOutputFormat.class, job.getOutputFormatClass());
    assertEquals(
        TextOutputFormat.class.getName(),
        job.getConfiguration().get(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS));
    AsyncOutput.enable(job);
    assertEquals(
        TextOutputFormat.class.getName(),
        job.getConfiguration().get(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS));
  }

  @Test
  public void enableOldApi() {
    JobConf job = new JobConf(false);
    job.setOutputFormat(SequenceFileOutputFormat.class);
    AsyncOutput.enable(job);
    assertEquals(AsyncMapredOutputFormat.class, job.getOutputFormat().getClass());
    assertEquals(
        SequenceFileOutputFormat.class.getName(), job.get(MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS));
  }
}
