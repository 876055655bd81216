/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco.output;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.marco.MarcoConfig;

/** Resolves {@link MarcoConfig#ASYNC_OUTPUT_DELEGATE_CLASS} for one of the two wrappers. */
final class DelegateFormat {
  private DelegateFormat() {}

  /**
   * @param api the output-format interface of the wrapper's API
   * @param dflt the API's default format
   * @param self the wrapper (may not wrap itself)
   * @param otherApi the other API's wrapper, named in the error when the class has the wrong API
   * @throws IllegalArgumentException naming the key, the class and the fix
   */
  static Class<?> resolve(
      Configuration conf, Class<?> api, Class<?> dflt, Class<?> self, Class<?> otherApi) {
    String key = MarcoConfig.ASYNC_OUTPUT_DELEGATE_CLASS;
    String name = conf.getTrimmed(key, "");
    if (name.isEmpty()) {
      return dflt;
    }
    Class<?> cls;
    try {
      cls = conf.getClassByName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + name
              + "' for "
              + key
              + ": class not found. Name an output format on the task classpath.",
          e);
    }
    if (self.isAssignableFrom(cls)) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + name
              + "' for "
              + key
              + ": the asynchronous wrapper cannot wrap itself. Name the format it should write"
              + " through, e.g. "
              + dflt.getName()
              + ".");
    }
    if (!api.isAssignableFrom(cls)) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + name
              + "' for "
              + key
              + ": not a "
              + api.getName()
              + ", which "
              + self.getSimpleName()
              + " needs. For the other API's"
              + " formats use "
              + otherApi.getName()
              + " as the job's output format.");
    }
    return cls;
  }
}
