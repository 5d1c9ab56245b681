package crd

// CEL rules of the experimental XTelemetryPolicy (v1.7.0). tracing.mode
// and parentBasedSampling.mode are defaulted (ImplementationDefault).

func xTelemetryPolicyRules() map[string]celImpl {
	return map[string]celImpl{
		// spec
		`has(self.tracing)`: {eval: func(self any) cbool { return cb(has(self, "tracing")) }},
		// spec.tracing
		`self.mode == 'Enabled' ? has(self.provider) : !has(self.provider)`: {eval: presentExactlyWhen("mode", "Enabled", "provider")},
		// spec.tracing and spec.tracing.parentBasedSampling
		`has(self.samplingRate) ? self.mode == 'Enabled' : true`:        {eval: configNeedsProtocolField("samplingRate", "mode", "Enabled")},
		`has(self.parentBasedSampling) ? self.mode == 'Enabled' : true`: {eval: configNeedsProtocolField("parentBasedSampling", "mode", "Enabled")},
		`has(self.serviceName) ? self.mode == 'Enabled' : true`:         {eval: configNeedsProtocolField("serviceName", "mode", "Enabled")},
		`has(self.spanName) ? self.mode == 'Enabled' : true`:            {eval: configNeedsProtocolField("spanName", "mode", "Enabled")},
		`has(self.attributes) ? self.mode == 'Enabled' : true`:          {eval: configNeedsProtocolField("attributes", "mode", "Enabled")},
		// spec.tracing.attributes[]: sourceType is required.
		`self.sourceType == 'Header' ? has(self.headerName) : !has(self.headerName)`:        {eval: presentExactlyWhen("sourceType", "Header", "headerName")},
		`self.sourceType == 'Literal' ? has(self.literalValue) : !has(self.literalValue)`:   {eval: presentExactlyWhen("sourceType", "Literal", "literalValue")},
		`self.sourceType == 'Attribute' ? has(self.attributeKey) : !has(self.attributeKey)`: {eval: presentExactlyWhen("sourceType", "Attribute", "attributeKey")},
	}
}
