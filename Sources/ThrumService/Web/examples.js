// Small patterns the live panel offers (the service serves only its own Web folder, not Examples/).
// `slice` is Examples/slice.ahap; the others are written for the panel.

const pulse = `{
  "Version": 1.0,
  "Metadata": { "Description": "A one-second pulse: a continuous hum that swells and fades, with a tap at each end." },
  "Pattern": [
    { "Event": { "Time": 0.0, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.7 } ] } },
    { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 1.0,
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.4 } ] } },
    { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.0,
        "ParameterCurveControlPoints": [ { "Time": 0.0, "ParameterValue": 0.3 },
                                         { "Time": 0.5, "ParameterValue": 1.0 },
                                         { "Time": 1.0, "ParameterValue": 0.2 } ] } },
    { "Event": { "Time": 0.95, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.8 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.9 } ] } }
  ]
}
`;

const slice = `{
  "Version": 1.0,
  "Metadata": { "Description": "Slicing the vine: a rounded continuous slice with a crisp snip on top, shaped by an intensity curve." },
  "Pattern": [
    { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.5,
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.6 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.8 } ] } },
    { "Event": { "Time": 0.08, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 1.0 } ] } },
    { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.0,
        "ParameterCurveControlPoints": [ { "Time": 0.0, "ParameterValue": 0.2 },
                                         { "Time": 0.08, "ParameterValue": 1.0 },
                                         { "Time": 0.24, "ParameterValue": 0.2 },
                                         { "Time": 0.34, "ParameterValue": 0.6 },
                                         { "Time": 0.5, "ParameterValue": 0.0 } ] } }
  ]
}
`;

const hum = `{
  "Version": 1.0,
  "Metadata": { "Description": "Five seconds of steady hum: move the intensity slider while it plays." },
  "Pattern": [
    { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 5.0,
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 } ] } }
  ]
}
`;

const taps = `{
  "Version": 1.0,
  "Metadata": { "Description": "Four taps, softer and duller each time." },
  "Pattern": [
    { "Event": { "Time": 0.0, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 1.0 } ] } },
    { "Event": { "Time": 0.2, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.75 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.7 } ] } },
    { "Event": { "Time": 0.4, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.5 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.4 } ] } },
    { "Event": { "Time": 0.6, "EventType": "HapticTransient",
        "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.3 },
                             { "ParameterID": "HapticSharpness", "ParameterValue": 0.1 } ] } }
  ]
}
`;

/** The examples by key, in the order the panel lists them; the first is the default. */
export const examples = [
  { key: 'pulse', title: 'Pulse (1 s)', text: pulse },
  { key: 'slice', title: 'Slice (Examples/slice.ahap, 0.5 s)', text: slice },
  { key: 'hum', title: 'Hum (5 s, for the slider)', text: hum },
  { key: 'taps', title: 'Four taps (0.6 s)', text: taps },
];
