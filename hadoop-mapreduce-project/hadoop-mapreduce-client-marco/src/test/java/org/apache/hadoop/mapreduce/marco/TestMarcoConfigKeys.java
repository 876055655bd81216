/*
 * SPDX-License-Identifier: Apache-2.0
 * Copyright 2026 The hadoop-marco authors
 */
package org.apache.hadoop.mapreduce.marco;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.util.StringUtils.TraditionalBinaryPrefix;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every key of {@link MarcoConfig}, found by reflection so that a new key cannot be missed: it is
 * listed in {@value MarcoConfig#MARCO_DEFAULT_XML} with its {@code DEFAULT_} value and a
 * description, and a bad value for it fails a MaRCO job at once with one line naming the key,
 * the value and what is allowed.
 */
public class TestMarcoConfigKeys {
  /** Keys whose value is free-form: any string is a valid Hadoop path, or JVM options. */
  private static final String[] FREE_FORM = {
    MarcoConfig.TIMELINE_DIR, MarcoConfig.REDUCE_JVM_OPTIONS
  };

  /** Key constant name (e.g. STOP_FRACTION) -> key. */
  private static Map<String, String> keys() throws IllegalAccessException {
    Map<String, String> keys = new TreeMap<>();
    for (Field f : MarcoConfig.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers())
          && f.getType() == String.class
          && !f.getName().startsWith("DEFAULT_")) {
        String value = (String) f.get(null);
        if (value.startsWith(MarcoConfig.PREFIX) && !value.equals(MarcoConfig.PREFIX)) {
          keys.put(f.getName(), value);
        }
      }
    }
    return keys;
  }

  /** The {@code DEFAULT_} twin of a key constant, or null for a key without a default. */
  private static Field twin(String constant) {
    try {
      return MarcoConfig.class.getField("DEFAULT_" + constant);
    } catch (NoSuchFieldException e) {
      return null;
    }
  }

  /** Key -> {value, description} as marco-default.xml lists them. */
  private static Map<String, String[]> defaultXml() throws Exception {
    Map<String, String[]> properties = new TreeMap<>();
    try (InputStream in =
        MarcoConfig.class.getClassLoader().getResourceAsStream(MarcoConfig.MARCO_DEFAULT_XML)) {
      assertNotNull(MarcoConfig.MARCO_DEFAULT_XML + " is not on the classpath", in);
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList list = doc.getElementsByTagName("property");
      for (int i = 0; i < list.getLength(); i++) {
        Element p = (Element) list.item(i);
        String name = text(p, "name");
        assertFalse("listed twice: " + name, properties.containsKey(name));
        properties.put(name, new String[] {text(p, "value"), text(p, "description")});
      }
    }
    return properties;
  }

  private static String text(Element property, String tag) {
    NodeList n = property.getElementsByTagName(tag);
    return n.getLength() == 0 ? null : n.item(0).getTextContent().trim();
  }

  @Test
  public void marcoDefaultXmlListsEveryKeyWithItsDefaultAndADescription() throws Exception {
    Map<String, String> keys = keys();
    Map<String, String[]> xml = defaultXml();
    assertEquals(
        "the keys of " + MarcoConfig.MARCO_DEFAULT_XML, new TreeSet<>(keys.values()), xml.keySet());
    for (Map.Entry<String, String> key : keys.entrySet()) {
      String[] listed = xml.get(key.getValue());
      assertTrue(
          key.getValue() + " needs a description", listed[1] != null && listed[1].length() > 20);
      Field twin = twin(key.getKey());
      String value = listed[0];
      if (twin == null) {
        assertEquals(key.getValue() + " has no default in MarcoConfig", "", value);
      } else if (twin.getType() == int.class || twin.getType() == long.class) {
        assertEquals(
            key.getValue(), twin.getLong(null), TraditionalBinaryPrefix.string2long(value));
      } else if (twin.getType() == float.class) {
        assertEquals(key.getValue(), twin.getFloat(null), Float.parseFloat(value), 0f);
      } else if (twin.getType() == boolean.class) {
        assertEquals(key.getValue(), String.valueOf(twin.getBoolean(null)), value);
      } else {
        assertEquals(key.getValue(), twin.get(null), value);
      }
    }
  }

  @Test
  public void everyDefaultTwinBelongsToAKey() throws Exception {
    Map<String, String> keys = keys();
    for (Field f : MarcoConfig.class.getFields()) {
      if (f.getName().startsWith("DEFAULT_")) {
        assertTrue(
            f.getName() + " is no key's twin",
            keys.containsKey(f.getName().substring("DEFAULT_".length())));
      }
    }
  }

  /** A value of the wrong kind for the key's type. */
  private static String badValueFor(String constant) {
    Field twin = twin(constant);
    if (twin == null) {
      return "no.such.Clazz"; // the keys without a default name classes
    }
    if (twin.getType() == String.class) {
      return "../dir"; // the other String keys are paths that may not climb out of their root
    }
    return twin.getType() == boolean.class ? "yes-please" : "lots";
  }

  @Test
  public void aBadValueOfAnyKeyFailsAMarcoJobWithOneLineNamingKeyValueAndFix() throws Exception {
    for (Map.Entry<String, String> key : keys().entrySet()) {
      if (Arrays.asList(FREE_FORM).contains(key.getValue())) {
        continue;
      }
      String bad = badValueFor(key.getKey());
      Configuration conf = new Configuration(false);
      conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, MarcoConfig.SHUFFLE_PLUGIN_CLASS);
      conf.set(key.getValue(), bad);
      String problem = MarcoJobCheck.problem(conf);
      assertNotNull(key.getValue() + "=" + bad + " was accepted", problem);
      assertTrue(problem, problem.startsWith(MarcoJobCheck.ERROR_PREFIX));
      assertTrue(problem, problem.contains(key.getValue()) && problem.contains("'" + bad + "'"));
      assertFalse("one line: " + problem, problem.contains("\n"));
      assertTrue(
          "says what to do: " + problem,
          problem.contains("allowed") || problem.contains("Name") || problem.contains("Ship"));
    }
  }

  @Test
  public void byteSizesTakeHadoopsSuffixes() {
    Configuration conf = new Configuration(false);
    conf.set(MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES, "64m");
    assertEquals(64 << 20, MarcoSettings.from(conf).getAsyncOutputBufferBytes());
    conf.set(MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES, "1g");
    assertEquals(1 << 30, MarcoSettings.from(conf).getAsyncOutputBufferBytes());
    conf.set(MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES, "65536");
    assertEquals(65536, MarcoSettings.from(conf).getAsyncOutputBufferBytes());
    conf.set(MarcoConfig.ASYNC_OUTPUT_BUFFER_BYTES, "2g");
    String problem = null;
    try {
      MarcoSettings.from(conf);
    } catch (IllegalArgumentException e) {
      problem = e.getMessage();
    }
    assertNotNull("2g is above the 1g limit", problem);
    assertTrue(problem, problem.contains("'2g'") && problem.contains("64m"));
  }

  @Test
  public void aStockJobFailsOnlyWhenItAsksForStaggeringWithABadValue() {
    Configuration conf = new Configuration(false);
    conf.set(MarcoConfig.STOP_FRACTION, "2");
    assertNull("a stock job does not use the key", MarcoJobCheck.problem(conf));
    conf.set(MarcoConfig.STAGGER_STOCK_JOBS, "true");
    String problem = MarcoJobCheck.problem(conf);
    assertNotNull(problem);
    assertTrue(problem, problem.contains(MarcoConfig.STOP_FRACTION));
    conf.unset(MarcoConfig.STOP_FRACTION);
    conf.set(MarcoConfig.STAGGER_STOCK_JOBS, "ture");
    problem = MarcoJobCheck.problem(conf);
    assertNotNull("a typo in the switch itself", problem);
    assertTrue(
        problem, problem.contains(MarcoConfig.STAGGER_STOCK_JOBS) && problem.contains("'ture'"));
  }
}
