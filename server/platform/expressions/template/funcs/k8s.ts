import { healthLine, type HealthStatus, k8sHealth } from '../../shared/k8s';
import { plainValues } from '../../shared/values';
import { func } from '../define';
import { type GoFunc, GoStruct } from '../kinds';
import { toString } from './conv';
import { parseYAML } from './yaml';

/**
 * gomplate's Kubernetes functions (funcs/kubernetes.go over flanksource/is-healthy): `isHealthy`,
 * `isReady`, `getStatus` (`status: message`), `getHealth` (a kubernetes.HealthStatus struct with fields
 * Status, Message, Health, Ready, OK), and the `k8s` namespace with the same as IsHealthy, IsReady,
 * GetStatus, GetHealth, plus GetHealthMap. The object is a map (or its `Object`) or YAML/JSON text, as
 * GetUnstructured reads it. The health rules are shared with CEL (shared/k8s.ts).
 */
const ops = { ...plainValues, text: toString };
const health = (value: unknown): HealthStatus => k8sHealth(value, parseYAML, ops);

function healthStruct(h: HealthStatus): GoStruct {
  return new GoStruct('kubernetes.HealthStatus', { Status: h.status, Message: h.message, Health: h.health, Ready: h.ready, OK: h.ok }, {});
}

const isHealthy = func(['any'], (value) => health(value).health === 'healthy');
const isReady = func(['any'], (value) => health(value).ready);
const getStatus = func(['any'], (value) => healthLine(health(value)));
const getHealth = func(['any'], (value) => healthStruct(health(value)));

// GetHealthMap is a JSON round trip into map[string]string: the two bools do not decode, the texts do.
const getHealthMap = func(['any'], (value) => {
  const h = health(value);
  return { status: h.status, message: h.message, health: h.health };
});

export const k8sNamespace = new GoStruct('*funcs.KubernetesFuncs', {}, {
  IsHealthy: isHealthy,
  IsReady: isReady,
  GetStatus: getStatus,
  GetHealth: getHealth,
  GetHealthMap: getHealthMap,
});

export const k8sFunctions: Record<string, GoFunc> = {
  k8s: func([], () => k8sNamespace),
  isHealthy,
  isReady,
  getStatus,
  getHealth,
};
