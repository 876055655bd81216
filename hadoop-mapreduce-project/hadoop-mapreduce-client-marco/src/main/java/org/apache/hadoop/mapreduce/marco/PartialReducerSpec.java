/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The partial reducer a job declared (or its combiner, when asked to), checked against the
 * map-output types: a partial reducer's output is merged with map outputs, so it must emit
 * exactly the map-output key and value types.
 */
@InterfaceAudience.Private
public final class PartialReducerSpec {
  private final Class<?> reducerClass;
  private final boolean newApi;

  private PartialReducerSpec(Class<?> reducerClass) {
    this.reducerClass = reducerClass;
    this.newApi = Reducer.class.isAssignableFrom(reducerClass);
  }

  /**
   * Resolves the partial reducer of a job, or returns null when it declares none.
   *
   * @throws IllegalArgumentException when the class is unknown, not a reducer, or its types
   *     differ from the map-output types
   */
  public static PartialReducerSpec resolve(JobConf job, MarcoSettings settings) {
    Class<?> cls = declaredClass(job, MarcoConfig.PARTIAL_REDUCER_CLASS);
    if (cls == null && settings.useCombinerAsPartialReducer()) {
      cls = declaredClass(job, MRJobConfig.COMBINE_CLASS_ATTR);
      if (cls == null) {
        cls = declaredClass(job, "mapred.combiner.class");
      }
    }
    if (cls == null) {
      return null;
    }
    if (!Reducer.class.isAssignableFrom(cls)
        && !org.apache.hadoop.mapred.Reducer.class.isAssignableFrom(cls)) {
      throw new IllegalArgumentException(
          "Partial reducer "
              + cls.getName()
              + " (from "
              + MarcoConfig.PARTIAL_REDUCER_CLASS
              + ") is neither an org.apache.hadoop.mapreduce.Reducer"
              + " nor an org.apache.hadoop.mapred.Reducer.");
    }
    PartialReducerSpec spec = new PartialReducerSpec(cls);
    spec.checkTypes(job.getMapOutputKeyClass(), job.getMapOutputValueClass());
    return spec;
  }

  public Class<?> getReducerClass() {
    return reducerClass;
  }

  /** True for an {@code org.apache.hadoop.mapreduce.Reducer}, false for an old-API one. */
  public boolean isNewApi() {
    return newApi;
  }

  private static Class<?> declaredClass(JobConf job, String key) {
    String name = job.getTrimmed(key);
    if (name == null || name.isEmpty()) {
      return null;
    }
    try {
      return job.getClassByName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + name
              + "' for "
              + key
              + ": class not found on the task classpath. Ship it in the job jar (-libjars) or fix "
              + "the class name.",
          e);
    }
  }

  /** Checks the type arguments the class binds; a type variable left open is checked at run time. */
  private void checkTypes(Class<?> mapKey, Class<?> mapValue) {
    Type[] args =
        reducerTypeArguments(
            reducerClass, newApi ? Reducer.class : org.apache.hadoop.mapred.Reducer.class);
    if (args == null) {
      return;
    }
    String[] roles = {"input key", "input value", "output key", "output value"};
    Class<?>[] expected = {mapKey, mapValue, mapKey, mapValue};
    for (int i = 0; i < 4; i++) {
      if (!(args[i] instanceof Class)) {
        continue;
      }
      Class<?> bound = (Class<?>) args[i];
      // A bound wider than the map-output type (e.g. Writable) cannot be decided here; the IFile
      // writer rejects a wrong record class at run time.
      if (!bound.isAssignableFrom(expected[i])) {
        throw new IllegalArgumentException(
            "Partial reducer "
                + reducerClass.getName()
                + " has "
                + roles[i]
                + " type "
                + bound.getName()
                + " but the map output "
                + (i % 2 == 0 ? "key" : "value")
                + " type is "
                + expected[i].getName()
                + ": a partial reducer must read and write the map-output types "
                + mapKey.getSimpleName()
                + "/"
                + mapValue.getSimpleName()
                + ".");
      }
    }
  }

  /** The four type arguments {@code cls} binds for {@code reducerType}, or null if unknown. */
  private static Type[] reducerTypeArguments(Class<?> cls, Class<?> reducerType) {
    for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
      Type[] candidates =
          reducerType.isInterface()
              ? c.getGenericInterfaces()
              : new Type[] {c.getGenericSuperclass()};
      for (Type t : candidates) {
        if (t instanceof ParameterizedType && ((ParameterizedType) t).getRawType() == reducerType) {
          return ((ParameterizedType) t).getActualTypeArguments();
        }
      }
    }
    return null;
  }
}
